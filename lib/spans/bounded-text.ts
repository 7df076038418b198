/**
 * Span-derived text as lists and summaries carry it: cut at a bound, with a mark that says it
 * was cut and how long the whole was. A span's name, a flow's name, a service name or an error
 * message may be any length (the OTLP door takes 32 MiB): four spans with 30 MiB names made
 * the home page's list 128 MB, shown after 32 s with 500 MB of heap. The whole value stays in
 * the trace, and the detail panel shows it; only what lists, summaries, sessions and run
 * events repeat is bounded (bounded-summary.ts).
 */

/** Names and titles: far above any real flow, tool, model, scenario or service name. */
export const NAME_MAX_CHARACTERS = 200;
/** Error messages in summaries: a real error's first lines. */
export const MESSAGE_MAX_CHARACTERS = 1_000;

/** The mark after the kept start of a cut text: `… [31457280 characters in all]`. */
const cutMark = (length: number) => `… [${length} characters in all]`;

/** Recognizes text `boundText` cut (its mark at the end). */
export const CUT_MARK_PATTERN = /… \[\d+ characters in all\]$/;

/**
 * `text` itself when it has at most `maxCharacters` UTF-16 units, else its start and the cut
 * mark. Never splits a surrogate pair. Text that was cut already is not cut again.
 */
export function boundText(text: string, maxCharacters: number = NAME_MAX_CHARACTERS): string {
  if (text.length <= maxCharacters) return text;
  // Only the tail is searched: the mark is short, the text may be 30 MiB.
  const tail = text.slice(-64);
  const mark = CUT_MARK_PATTERN.exec(tail);
  if (mark && text.length - tail.length + mark.index <= maxCharacters) return text;
  let end = maxCharacters;
  const last = text.charCodeAt(end - 1);
  // A high surrogate whose low half would be cut off goes too.
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}${cutMark(text.length)}`;
}

/** `boundText` for an optional value. */
export function boundOptionalText(text: string | undefined, maxCharacters: number = NAME_MAX_CHARACTERS): string | undefined {
  return text === undefined ? undefined : boundText(text, maxCharacters);
}
