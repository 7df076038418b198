import { canonicalJson, isObject, messageParts } from './message-parts';

/**
 * A 64-bit hash of a string as 16 hex characters: two independent 32-bit multiply-xorshift
 * lanes (cyrb53's mixing, both lanes kept). Pure JavaScript because the graph is also built in
 * the browser; good enough to tell conversations apart, and every match also compares the
 * tool requests in full.
 */
export function hashText(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

/**
 * A key for a whole conversation: role and parts of every message, with all metadata left
 * out — genkit rewrites part metadata on resume (`interrupt` → `resolvedInterrupt`, the
 * pendingOutput marker stripped: INTERRUPT-MODEL.md §7 bug 3), so the history a resume
 * recorded and the history its interrupt produced differ only there. Undefined for no messages.
 */
export function conversationKey(messages: readonly unknown[]): string | undefined {
  if (messages.length === 0) return undefined;
  const normalized = messages.filter(isObject).map((message) => ({
    role: message.role,
    content: messageParts(message).map(({ metadata: _metadata, ...part }) => part),
  }));
  return hashText(canonicalJson(normalized));
}
