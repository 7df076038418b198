/**
 * Two orders in a genkit Go 1.12 model request are races, not choices (ai/generate.go, measured by
 * replaying the fixtures here):
 * - `tools`: GenerateWithRequest collects the definitions in a Go map (`toolDefMap`) and lists them
 *   by ranging over it, so their order changes from run to run;
 * - the parts of a resumed tool message (`metadata.resumed`): handleResumeOption appends the
 *   responses in the order they finish (it reads a channel; the tool loop itself orders them by
 *   request, toolRespByIndex), so a reused pendingOutput and a restarted tool come in either order.
 * A replay compares those lists in any order: this puts a replayed list in the recorded order when
 * it holds the same items, and leaves every other difference to the comparison.
 */
import { canonicalJson, isObject } from '../../../spans/json-value';

/** `replayed` in the order of `recorded` when both hold the same items in another order; else undefined. */
function recordedOrder(recorded: unknown[], replayed: unknown[]): unknown[] | undefined {
  if (recorded.length !== replayed.length) return undefined;
  const keys = replayed.map(canonicalJson);
  const recordedKeys = recorded.map(canonicalJson);
  if (keys.join('\n') === recordedKeys.join('\n') || [...keys].sort().join('\n') !== [...recordedKeys].sort().join('\n')) return undefined;
  return recordedKeys.map((key) => replayed[keys.indexOf(key)]);
}

function isResumedToolMessage(message: unknown): message is { content: unknown[] } {
  return isObject(message) && message.role === 'tool' && isObject(message.metadata) && Boolean(message.metadata.resumed) && Array.isArray(message.content);
}

/** The replayed model request with its racy lists in the recorded order, when only their order differs (a copy; the input is not changed). */
export function alignToRecordedOrder({ recorded, replayed }: { recorded: Record<string, unknown> | undefined; replayed: Record<string, unknown> }): Record<string, unknown> {
  if (!recorded) return replayed;
  let aligned = replayed;
  if (Array.isArray(recorded.tools) && Array.isArray(replayed.tools)) {
    const tools = recordedOrder(recorded.tools, replayed.tools);
    if (tools) aligned = { ...aligned, tools };
  }
  const recordedMessages = Array.isArray(recorded.messages) ? recorded.messages : [];
  if (Array.isArray(replayed.messages)) {
    let messages: unknown[] | undefined;
    replayed.messages.forEach((message, position) => {
      const counterpart = recordedMessages[position];
      if (!isResumedToolMessage(message) || !isResumedToolMessage(counterpart)) return;
      const content = recordedOrder(counterpart.content, message.content);
      if (!content) return;
      messages ??= [...(replayed.messages as unknown[])];
      messages[position] = { ...message, content };
    });
    if (messages) aligned = { ...aligned, messages };
  }
  return aligned;
}
