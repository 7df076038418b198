import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { genkitConversationOf } from '../runtimes/genkit-js/read/conversation';
import { loadTraceFile } from '../store/load-trace-file';
import { buildRunGraph } from './build-run-graph';
import { diffConversation } from './conversation-diff';

describe('diffConversation on a real resume', () => {
  it('parallel-pending-output: the resume keeps the history, rewrites the interrupt markers, and answers nothing new in messages', async () => {
    const spans = await loadTraceFile(path.join(process.cwd(), 'traces', 'parallel-pending-output.json'));
    const graph = buildRunGraph(spans);
    const [interrupted, resume] = graph.generates;
    const root = (id: string) => spans.find((span) => `${span.traceId}:${span.spanId}` === id)!;
    const before = genkitConversationOf(root(interrupted.id))!;
    const after = genkitConversationOf(root(resume.id))!;
    // The interrupted model message carries the interrupt and the parked pendingOutput.
    const markers = before.received[0].parts.flatMap((part) => part.markers.map((marker) => marker.name));
    expect(markers).toEqual(expect.arrayContaining(['interrupt', 'pendingOutput']));
    // The resume's own answers: a restart of transferMoney.
    expect(after.answers?.parts.map((part) => [part.kind, part.name, part.markers.map((marker) => marker.name)])).toEqual([['tool-request', 'transferMoney', ['interrupt', 'resumed']]]);

    const diff = diffConversation({ before: [...before.sent, ...before.received], after: after.sent });
    expect(diff.removed).toBe(0);
    expect(diff.messages[0].status).toBe('same');
    const model = diff.messages.at(-1)!;
    expect(model.message.role).toBe('model');
    expect(model.status).toBe('changed');
    // Same requests, other markers: the runtime rewrote them.
    expect(model.parts.every((entry) => entry.change === 'markers' || entry.change === 'same')).toBe(true);
    expect(model.parts.some((entry) => entry.change === 'markers')).toBe(true);
  });

  it('names added messages and changed content', () => {
    const text = (value: string) => ({ role: 'user', parts: [{ kind: 'text' as const, value, markers: [] }] });
    const diff = diffConversation({ before: [text('a')], after: [text('b'), text('c')] });
    expect(diff.messages.map((entry) => entry.status)).toEqual(['changed', 'added']);
    expect(diff.messages[0].parts[0].change).toBe('content');
  });
});
