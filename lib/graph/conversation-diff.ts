import type { MessagePartView, MessageView } from '../contract/conversation-view';
import { canonicalJson } from '../spans/json-value';

/** How one part of a resume's history differs from the history its interrupt left. */
export type PartChange = 'same' | 'markers' | 'content' | 'added';

export interface MessageDiff {
  message: MessageView;
  /** `same`: as the interrupt left it; `changed`: a part differs (often only its markers: the runtime rewrote them); `added`: new in the resume. */
  status: 'same' | 'changed' | 'added';
  parts: { part: MessagePartView; change: PartChange; before?: MessagePartView }[];
}

const contentKey = (part: MessagePartView) => canonicalJson({ kind: part.kind, name: part.name, ref: part.ref, value: part.value });
const markersKey = (part: MessagePartView) => canonicalJson(part.markers);

/**
 * What a resume changed in the messages: its history (`after`) compared message by message,
 * part by part, with the history its interrupt left (`before`: what the interrupted call sent
 * plus what it received). A part with the same content but other markers is a rewrite by the
 * runtime (genkit turns `interrupt` into `resolvedInterrupt` and strips `pendingOutput`: docs/interrupt-model.md
 * §7 bug 3); messages past the end of `before` were added by the resume. `removed` counts the
 * messages of `before` the resume no longer sends. Runtime-free and pure.
 */
export function diffConversation(options: { before: readonly MessageView[]; after: readonly MessageView[] }): { messages: MessageDiff[]; removed: number } {
  const { before, after } = options;
  const messages = after.map((message, index): MessageDiff => {
    const old = before[index];
    if (!old || old.role !== message.role) return { message, status: 'added', parts: message.parts.map((part) => ({ part, change: 'added' as const })) };
    const parts = message.parts.map((part, partIndex) => {
      const previous = old.parts[partIndex];
      if (!previous) return { part, change: 'added' as const };
      if (contentKey(previous) !== contentKey(part)) return { part, change: 'content' as const, before: previous };
      return markersKey(previous) !== markersKey(part) ? { part, change: 'markers' as const, before: previous } : { part, change: 'same' as const };
    });
    const changed = parts.some((entry) => entry.change !== 'same') || old.parts.length > message.parts.length;
    return { message, status: changed ? 'changed' : 'same', parts };
  });
  return { messages, removed: Math.max(0, before.length - after.length) };
}
