/**
 * What the page's token prompt accepts: the token itself, or the whole `➜ Open:` URL of the
 * start banner (`http://127.0.0.1:PORT/#token=…`), as people copy it from the terminal.
 * Pure (no Node modules): the session gate in the browser uses it, and the fragment reader.
 * Returns null when there is no token to try.
 */
export function parseTokenInput(input: string): string | null {
  const text = input.trim();
  if (text === '') return null;
  const fragment = /#(?:.*&)?token=([^&\s]*)/.exec(text);
  const token = fragment ? safeDecode(fragment[1]) : text;
  return token.trim() === '' ? null : token.trim();
}

/** The token in a page URL's fragment (`location.hash`), or null when it holds none. */
export function tokenFromFragment(hash: string): string | null {
  return /(?:^#|&)token=/.test(hash) ? parseTokenInput(hash) : null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // A stray % is more likely a typo than an encoding: try the text as it is.
    return value;
  }
}
