/**
 * Recorded text shown in a terminal (the CLI's text output, a repro's printed outcomes) is
 * data: a name holding an escape sequence must not move the cursor, retitle the window or
 * hide what follows, and a line break must not forge a line. These characters are shown as
 * `\uXXXX` instead: C0 and C1 controls (ESC, CR, LF, …), DEL, the line and paragraph
 * separators, and the bidirectional overrides and isolates.
 */
export const UNPRINTABLE_PATTERN_SOURCE = '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069]';

const UNPRINTABLE = new RegExp(UNPRINTABLE_PATTERN_SOURCE, 'g');

/** `text` with every character a terminal would act on written as a `\uXXXX` escape. */
export function printableText(text: string): string {
  return text.replace(UNPRINTABLE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
