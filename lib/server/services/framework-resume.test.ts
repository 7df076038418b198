import { describe, expect, it } from 'vitest';
import { loadFrameworkFixture } from '../../runtimes/testing/framework-fixtures';
import type { Span } from '../../spans/span';
import type { AppContext } from '../app-context';
import { resumeContextView } from './resume-context-view';
import { checkResumeFromTrace, resumeFromTrace } from './resume-service';

/**
 * An agent framework's paused trace in the resume workbench (`POST /api/resume/context`,
 * `/api/resume/check`, `/api/resume`): the requests in the framework's words with the kinds of
 * answer it takes, the answer checked by its rules with nothing of this machine's runners in the
 * way, and — Loopscope does not run the framework's apps — no run: the answer is the app's code.
 */
function contextOf(spans: Span[]): AppContext {
  const traces = new Map<string, Span[]>();
  for (const span of spans) traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
  const runs = { create: () => { throw new Error('no run may start for an answer that runs elsewhere'); } };
  return {
    store: { get: async (traceId: string) => traces.get(traceId) },
    supervisor: { status: { state: 'ready', tools: [], aiSdkTools: [], models: [], scenarios: [], problems: [], restarts: 0, runners: [] } },
    providers: { availability: () => ({ openaiCompatible: false, gemini: false }) },
    runs,
  } as unknown as AppContext;
}

/** The paused trace of a fixture (its first). */
const pausedTrace = (spans: Span[]) => [...spans].sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1))[0].traceId;

describe('an agent framework’s pause in the resume workbench', () => {
  it('Pydantic AI: each call in its words, its kinds of answer, checked by its rules; the answer runs in the app', async () => {
    const spans = await loadFrameworkFixture('pydantic-ai', 'v6-two-approvals-mixed');
    const context = contextOf(spans);
    const source = { traceIds: [pausedTrace(spans)] };
    const view = await resumeContextView(context, { source });
    expect(view).toMatchObject({ dialect: 'pydantic-ai', runtimeTitle: 'Pydantic AI', snippetLanguage: 'Python', runsElsewhere: expect.stringContaining('Loopscope does not run Pydantic AI apps') });
    expect(view.answerKinds.map((kind) => kind.kind)).toEqual(['approve', 'deny', 'respond', 'restart']);
    expect(view.requests.map(({ name, ref, pausedAs, waitingFor, defaultKind }) => ({ name, ref, pausedAs, waitingFor, defaultKind }))).toEqual([
      { name: 'book_hotel', ref: 'call_book_paris', pausedAs: 'approval required (requires_approval)', waitingFor: 'approval', defaultKind: 'approve' },
      { name: 'book_hotel', ref: 'call_book_rome', pausedAs: 'approval required (requires_approval)', waitingFor: 'approval', defaultKind: 'approve' },
      { name: 'run_background_check', ref: 'call_check_ada', pausedAs: 'deferred (CallDeferred)', waitingFor: 'result', defaultKind: 'respond' },
    ]);
    const answer = { source, respond: [{ name: 'run_background_check', ref: 'call_check_ada', output: { status: 'clear' } }], restart: [], approve: [{ name: 'book_hotel', ref: 'call_book_paris' }], deny: [{ name: 'book_hotel', ref: 'call_book_rome', reason: 'Not Rome.' }] };
    const checked = await checkResumeFromTrace(context, answer);
    // None of this machine's runners is asked: no model or tool of theirs is missing for it.
    expect(checked.blockers).toEqual([]);
    expect(checked.validation.errors).toEqual([]);
    expect(checked.validation.payload.answer).toEqual({ approvals: { call_book_paris: true, call_book_rome: { kind: 'ToolDenied', message: 'Not Rome.' } }, calls: { call_check_ada: { status: 'clear' } } });
    await expect(resumeFromTrace(context, answer)).rejects.toThrow(/^Loopscope does not run Pydantic AI apps: paste the answer into your app/);
  });

  it('OpenAI Agents SDK: approve and reject only; a result is refused in the SDK’s terms', async () => {
    const spans = await loadFrameworkFixture('openai-agents', 'approval-approve');
    const context = contextOf(spans);
    const source = { traceIds: [pausedTrace(spans)] };
    const view = await resumeContextView(context, { source });
    expect(view).toMatchObject({ dialect: 'openai-agents', runtimeTitle: 'OpenAI Agents SDK', runsElsewhere: expect.stringContaining('Loopscope does not run OpenAI Agents apps') });
    expect(view.answerKinds.map((kind) => kind.kind)).toEqual(['approve', 'deny']);
    expect(view.requests.map(({ name, ref, state, pausedAs }) => ({ name, ref, state, pausedAs }))).toEqual([
      { name: 'get_weather', ref: 'call_weather_paris', state: 'done', pausedAs: undefined },
      { name: 'book_hotel', ref: 'call_book_paris', state: 'interrupted', pausedAs: 'approval required (needs_approval)' },
    ]);
    const refused = await checkResumeFromTrace(context, { source, respond: [{ name: 'book_hotel', ref: 'call_book_paris', output: 'Booked by phone.' }], restart: [] });
    expect(refused.validation.errors.map((issue) => issue.message)).toEqual([expect.stringContaining('RunState offers approve() and reject() only')]);
  });
});
