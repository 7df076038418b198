/** Inputs that take text: a key pressed there is typing, never a shortcut. Checkboxes, radios and buttons are not. */
const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'datetime-local', 'month', 'time', 'week']);

/** True when a key event's target takes text, so page shortcuts must leave the key alone. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return true;
  return target instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(target.type);
}

/** True for a key pressed with Ctrl, Cmd or Alt: the browser's or the system's, not ours. */
export function hasCommandModifier(event: KeyboardEvent): boolean {
  return event.metaKey || event.ctrlKey || event.altKey;
}

/** Where a list's selection moves for a key (↓/j, ↑/k, Home, End), or undefined for any other key. */
export function listStep(options: { key: string; index: number; length: number }): number | undefined {
  const { key, index, length } = options;
  if (key === 'ArrowDown' || key === 'j') return Math.min(length - 1, index + 1);
  if (key === 'ArrowUp' || key === 'k') return Math.max(0, index - 1);
  if (key === 'Home') return 0;
  if (key === 'End') return length - 1;
  return undefined;
}
