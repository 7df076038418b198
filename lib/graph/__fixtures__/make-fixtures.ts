/**
 * Regenerates the genkit span fixtures in this folder from real genkit 1.42 runs.
 *
 *   node --import tsx lib/graph/__fixtures__/make-fixtures.ts
 *
 * Every case runs `genkit/beta` in-process against a scripted model (`fixture/<case>`) whose
 * answer depends only on how many `role:"model"` messages the request holds, so a resume
 * continues the script. Spans are captured with an in-memory exporter, serialized with the
 * OTLP JSON serializer, normalised through `decodeOtlpJson` + `encodeOtlpJson` and written as
 * `<case>.otlp.json` with a top-level `description`. Span ids and timestamps differ per run;
 * message content does not.
 *
 * The descriptions are built from what genkit actually did in this run (finish reasons, error
 * messages), so a genkit upgrade that changes behaviour shows up as a diff in the fixtures.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { disableGenkitOTelInitialization } from 'genkit/tracing';
import { decodeOtlpJson, encodeOtlpJson } from '../../trace/otlp-json';
import type { Span } from '../../trace/span';

// ---------------------------------------------------------------------------------------------
// Capture: our own provider, registered before genkit is imported or initialised.

disableGenkitOTelInitialization();
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'loopscope-fixtures' }),
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
trace.setGlobalTracerProvider(provider);
// Without a context manager `startActiveSpan` cannot propagate the active span across awaits:
// every genkit span then becomes the root of its own trace (checked: 5 spans → 5 traces).
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

const { genkit, z } = await import('genkit/beta');
type GenerateResponse = Awaited<ReturnType<(typeof ai)['generate']>>;

const ai = genkit({});
const OUT_DIR = dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------------------------
// Scripted models.

type Part = Record<string, unknown>;
type ModelRequest = { messages: Array<{ role: string; content: Array<Record<string, any>>; metadata?: Record<string, unknown> }>; tools?: Array<{ name: string }> };
type Turn = Part[] | ((n: number, request: ModelRequest) => Part[]);

/** Every request each scripted model received, as JSON copies (for the report). */
const modelRequests = new Map<string, ModelRequest[]>();

function scriptedModel(caseName: string, turns: Turn[]): string {
  const name = `fixture/${caseName}`;
  modelRequests.set(caseName, []);
  ai.defineModel({ name, supports: { tools: true, multiturn: true } }, async (request) => {
    const copy = JSON.parse(JSON.stringify(request)) as ModelRequest;
    modelRequests.get(caseName)!.push(copy);
    const n = copy.messages.filter((message) => message.role === 'model').length;
    const turn = turns[Math.min(n, turns.length - 1)];
    const content = typeof turn === 'function' ? turn(n, copy) : turn;
    return { message: { role: 'model', content: content as never }, finishReason: 'stop' };
  });
  return name;
}

const call = (name: string, ref: string | undefined, input: unknown): Part =>
  ref === undefined ? { toolRequest: { name, input } } : { toolRequest: { name, ref, input } };
const say = (text: string): Part => ({ text });
const lastUserText = (request: ModelRequest): string =>
  [...request.messages].reverse().find((message) => message.role === 'user')?.content.map((part) => part.text ?? '').join('') ?? '';

// ---------------------------------------------------------------------------------------------
// Tools (all schemas from genkit's own `z`).

const CITY_WEATHER: Record<string, { tempC: number; sky: string }> = {
  Oslo: { tempC: 4, sky: 'snow' },
  Lima: { tempC: 19, sky: 'overcast' },
  Paris: { tempC: 12, sky: 'rain' },
};

const getWeather = ai.defineTool(
  {
    name: 'getWeather',
    description: 'Current weather for a city.',
    inputSchema: z.object({ city: z.string() }),
    outputSchema: z.object({ city: z.string(), tempC: z.number(), sky: z.string() }),
  },
  async ({ city }) => ({ city, ...(CITY_WEATHER[city] ?? { tempC: 15, sky: 'clear' }) }),
);

const getTime = ai.defineTool(
  {
    name: 'getTime',
    description: 'Local wall-clock time in a time zone (fixed for fixtures).',
    inputSchema: z.object({ zone: z.string() }),
    outputSchema: z.object({ zone: z.string(), time: z.string() }),
  },
  async ({ zone }) => ({ zone, time: '09:30' }),
);

const transferMoney = ai.defineTool(
  {
    name: 'transferMoney',
    description: 'Transfers money; needs human approval (interrupts unless resumed).',
    inputSchema: z.object({ to: z.string(), amount: z.number() }),
    outputSchema: z.object({ status: z.string(), to: z.string(), amount: z.number(), approvedBy: z.string().nullable() }),
  },
  async ({ to, amount }, ctx) => {
    if (!ctx.resumed) ctx.interrupt({ reason: 'approval', to, amount });
    const approvedBy = typeof ctx.resumed === 'object' && ctx.resumed !== null && typeof ctx.resumed.approvedBy === 'string' ? ctx.resumed.approvedBy : null;
    return { status: 'sent', to, amount, approvedBy };
  },
);

const askApproval = ai.defineInterrupt({
  name: 'askApproval',
  description: 'Asks a human to approve something.',
  inputSchema: z.object({ question: z.string() }),
  outputSchema: z.object({ approved: z.boolean(), by: z.string() }),
  requestMetadata: (input) => ({ kind: 'approval', question: input.question }),
});

const askUser = ai.defineInterrupt({
  name: 'askUser',
  description: 'Asks the user a free-form question (no request metadata).',
  inputSchema: z.object({ question: z.string() }),
  outputSchema: z.object({ answer: z.string() }),
});

const confirmDelete = ai.defineTool(
  {
    name: 'confirmDelete',
    description: 'Deletes a file after confirmation (interrupts with no metadata unless resumed).',
    inputSchema: z.object({ path: z.string() }),
    outputSchema: z.object({ deleted: z.string() }),
  },
  async ({ path }, ctx) => {
    if (!ctx.resumed) ctx.interrupt();
    return { deleted: path };
  },
);

const lookupAccount = ai.defineTool(
  {
    name: 'lookupAccount',
    description: 'Looks up an account balance.',
    inputSchema: z.object({ name: z.string() }),
    outputSchema: z.object({ name: z.string(), balance: z.number() }),
  },
  async ({ name }) => ({ name, balance: 1200 }),
);

const countStep = ai.defineTool(
  {
    name: 'countStep',
    description: 'Returns the next step number.',
    inputSchema: z.object({ n: z.number() }),
    outputSchema: z.object({ n: z.number(), next: z.number() }),
  },
  async ({ n }) => ({ n, next: n + 1 }),
);

const flakyBackend = ai.defineTool(
  {
    name: 'flakyBackend',
    description: 'Queries a backend that is down.',
    inputSchema: z.object({ query: z.string() }),
    outputSchema: z.string(),
  },
  async () => {
    throw new Error('boom: backend down');
  },
);

const addNumbers = ai.defineTool(
  {
    name: 'addNumbers',
    description: 'Adds two numbers.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    outputSchema: z.number(),
  },
  async ({ a, b }) => a + b,
);

const ping = ai.defineTool(
  {
    name: 'ping',
    description: 'Answers pong.',
    inputSchema: z.object({ seq: z.number() }),
    outputSchema: z.string(),
  },
  async ({ seq }) => `pong ${seq}`,
);

const lockVault = ai.defineTool(
  {
    name: 'lockVault',
    description: 'Always asks for a second factor — never checks ctx.resumed (bug 1).',
    inputSchema: z.object({ vault: z.string() }),
    outputSchema: z.object({ locked: z.boolean() }),
  },
  async ({ vault }, ctx) => {
    ctx.interrupt({ reason: 'second-factor', vault });
    return { locked: true };
  },
);

// ---------------------------------------------------------------------------------------------
// Case runner.

interface CaseOutcome {
  /** What the case shows and how its spans should be classified; may look at the captured spans. */
  description: string | ((spans: Span[]) => string);
  /** Extra lines for the console report. */
  notes?: string[];
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const status = (error as { status?: unknown }).status;
    return `${error.name}${status ? ` [status ${String(status)}]` : ''}: ${JSON.stringify(error.message)}`;
  }
  return `non-Error thrown: ${JSON.stringify(error)}`;
}

async function expectFailure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    const result = await run();
    throw new UnexpectedSuccess(result);
  } catch (error) {
    if (error instanceof UnexpectedSuccess) throw new Error(`expected a failure, got finishReason ${JSON.stringify((error.result as GenerateResponse)?.finishReason)}`);
    return error;
  }
}
class UnexpectedSuccess extends Error {
  constructor(readonly result: unknown) {
    super('unexpected success');
  }
}

const summary: string[] = [];
const problems: string[] = [];

async function runCase(caseName: string, run: () => Promise<CaseOutcome>): Promise<void> {
  exporter.reset();
  let outcome: CaseOutcome;
  try {
    outcome = await run();
  } catch (error) {
    problems.push(`${caseName}: the case itself failed: ${errorText(error)}`);
    outcome = { description: `FIXTURE SCRIPT FAILURE: ${errorText(error)}` };
  }
  await provider.forceFlush();
  const finished = exporter.getFinishedSpans();
  const bytes = JsonTraceSerializer.serializeRequest(finished);
  if (!bytes) throw new Error(`${caseName}: the serializer returned nothing`);
  const spans = decodeOtlpJson(JSON.parse(new TextDecoder().decode(bytes)));
  for (const span of spans) for (const event of span.events) delete event.attributes['exception.stacktrace'];
  const description = typeof outcome.description === 'function' ? outcome.description(spans) : outcome.description;
  const file = join(OUT_DIR, `${caseName}.otlp.json`);
  writeFileSync(file, `${JSON.stringify({ description, ...encodeOtlpJson(spans) }, null, 1)}\n`);
  exporter.reset();

  const traces = [...new Set(spans.map((span) => span.traceId))];
  summary.push(`\n=== ${caseName}: ${traces.length} trace(s), ${spans.length} span(s)`);
  summary.push(`  description: ${description}`);
  for (const note of outcome.notes ?? []) summary.push(`  note: ${note}`);
  for (const [index, traceId] of traces.entries()) {
    const inTrace = spans.filter((span) => span.traceId === traceId).sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
    summary.push(`  trace ${index + 1}:`);
    for (const span of inTrace) {
      const a = span.attributes;
      const bits = [
        `${a['genkit:type']}${a['genkit:metadata:subtype'] ? `/${a['genkit:metadata:subtype']}` : ''}`,
        `state=${a['genkit:state']}`,
        `status=${span.status.code}${span.status.message ? `(${JSON.stringify(span.status.message)})` : ''}`,
        a['genkit:isRoot'] ? 'root' : '',
        a['genkit:isFailureSource'] ? 'failureSource' : '',
        a['genkit:metadata:interrupt'] !== undefined ? `interrupt=${a['genkit:metadata:interrupt']}` : '',
        a['genkit:metadata:resumed'] !== undefined ? `resumed=${a['genkit:metadata:resumed']}` : '',
        span.events.length ? `events=${span.events.map((event) => `${event.name}:${event.attributes['exception.type'] ?? ''}:${JSON.stringify(event.attributes['exception.message'] ?? '')}`).join(',')}` : '',
      ].filter(Boolean);
      summary.push(`    ${String(a['genkit:path'] ?? span.name)}  ${bits.join(' ')}`);
    }
  }
  if (spans.length === 0) problems.push(`${caseName}: no spans captured`);
}

/** Root spans in the order their runs started. */
function rootsInOrder(spans: Span[]): Span[] {
  return spans.filter((span) => span.parentSpanId === undefined).sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
}

/** The spans of the n-th trace (0-based, by root start time). */
function spansOfTrace(spans: Span[], traceIndex: number): Span[] {
  const traceId = rootsInOrder(spans)[traceIndex]?.traceId;
  return spans.filter((span) => span.traceId === traceId);
}

/** The `genkit:input` of the root span of the n-th trace (0-based, by start time). */
function rootInput(spans: Span[], traceIndex: number): string {
  return String(rootsInOrder(spans)[traceIndex]?.attributes['genkit:input'] ?? '');
}

const listSpans = (spans: Span[]): string =>
  spans.map((span) => `${span.name}(${span.attributes['genkit:state']}${span.attributes['genkit:isFailureSource'] ? ', failure source' : ''})`).join(', ');

const PAUSE = 'Interrupted tool spans are pauses (status ERROR, genkit:state=error, isFailureSource=true, exception event ToolInterruptError) and must be classified as interrupts, never failures; their generate is success with finishReason "interrupted" only inside genkit:output.';

const RESUME_SHAPE = 'Resume-trace shape: the root generate resolves the resume itself (restarted tool spans are its direct children; responds and reused pendingOutputs leave no span), then the first model call of the resume runs inside a NESTED generate span — so a resume trace has 2N+T+1 spans, not 2N+T.';

// ---------------------------------------------------------------------------------------------
// Cases.

await runCase('plain-round', async () => {
  const model = scriptedModel('plain-round', [
    [call('getWeather', 'w1', { city: 'Paris' }), call('getTime', 't1', { zone: 'Europe/Paris' })],
    [say('It is 09:30 in Paris and 12°C with rain.')],
  ]);
  const response = await ai.generate({ model, prompt: 'Weather and time in Paris?', tools: [getWeather, getTime] });
  return {
    description: `One generate call (1 trace), finishReason ${JSON.stringify(response.finishReason)}. Turn 1: the model requests getWeather#w1 and getTime#t1 in parallel; both tool spans are siblings of the first model span under the root generate (genkit:type=util). Turn 2 is a nested generate span holding the second model span, which answers with text. 2 model calls + 2 tool runs = 6 spans, all success: classify as one run with one tool round (two parallel tool calls) and a final text answer.`,
  };
});

await runCase('interrupt-restart', async () => {
  const model = scriptedModel('interrupt-restart', [
    [call('transferMoney', 'tx1', { to: 'bob', amount: 500 })],
    [say('Transferred 500 to bob, approved by alice.')],
  ]);
  const first = await ai.generate({ model, prompt: 'Send 500 to bob.', tools: [transferMoney] });
  const interrupt = first.interrupts[0];
  const second = await ai.generate({
    model,
    messages: first.messages,
    tools: [transferMoney],
    resume: { restart: [transferMoney.restart(interrupt, { approvedBy: 'alice' })] },
  });
  const toolMessage = second.messages.find((message) => message.role === 'tool');
  return {
    description: `Two traces. Trace 1: generate → model span + transferMoney#tx1 tool span that called ctx.interrupt({reason:'approval',...}) → genkit:metadata:interrupt is set, finishReason ${JSON.stringify(first.finishReason)} (interrupts: ${first.interrupts.length}). ${PAUSE} Trace 2 (the resume, no OTel link to trace 1; match by tool name + ref + input): its root generate's genkit:input holds resume.restart with metadata.resumed={"approvedBy":"alice"}; the transferMoney tool runs again (tool span with genkit:metadata:resumed, success, output ${JSON.stringify(toolMessage?.content[0]?.toolResponse?.output)}), then a nested generate with the model span answering text. finishReason ${JSON.stringify(second.finishReason)}. ${RESUME_SHAPE} Classify: run paused at an approval interrupt, resumed by restart, completed.`,
    notes: [`first.finishReason=${first.finishReason}, second.finishReason=${second.finishReason}`, `resume tool message: ${JSON.stringify(toolMessage)}`],
  };
});

await runCase('interrupt-respond', async () => {
  const model = scriptedModel('interrupt-respond', [
    [call('askApproval', 'ap1', { question: 'Refund order 42?' })],
    [say('Refund approved by carol.')],
  ]);
  const first = await ai.generate({ model, prompt: 'Refund order 42.', tools: [askApproval] });
  const second = await ai.generate({
    model,
    messages: first.messages,
    tools: [askApproval],
    resume: { respond: [askApproval.respond(first.interrupts[0], { approved: true, by: 'carol' })] },
  });
  return {
    description: `Two traces. Trace 1: askApproval is an ai.defineInterrupt tool WITH requestMetadata; its span carries genkit:metadata:interrupt={"kind":"approval","question":"Refund order 42?"}; finishReason ${JSON.stringify(first.finishReason)}. ${PAUSE} Trace 2: resume by respond (toolResponse with metadata.interruptResponse=true in the root generate's genkit:input resume.respond). A respond produces NO tool span: trace 2 is only the resume generate, a nested generate and the model span. finishReason ${JSON.stringify(second.finishReason)}. ${RESUME_SHAPE} Classify: paused at an interrupt, answered by a human (respond), completed.`,
    notes: [`first=${first.finishReason} second=${second.finishReason}`],
  };
});

await runCase('interrupt-no-metadata', async () => {
  const model = scriptedModel('interrupt-no-metadata', [
    [call('askUser', 'u1', { question: 'Which folder?' }), call('confirmDelete', 'd1', { path: '/tmp/old-report.txt' })],
    [say('Deleted /tmp/old-report.txt; you chose the archive folder.')],
  ]);
  const first = await ai.generate({ model, prompt: 'Clean up my files.', tools: [askUser, confirmDelete] });
  const [userInterrupt, deleteInterrupt] = ['askUser', 'confirmDelete'].map((name) => first.interrupts.find((part) => part.toolRequest.name === name)!);
  const second = await ai.generate({
    model,
    messages: first.messages,
    tools: [askUser, confirmDelete],
    resume: {
      respond: [askUser.respond(userInterrupt, { answer: 'archive' })],
      restart: [confirmDelete.restart(deleteInterrupt)],
    },
  });
  return {
    description: (spans) => {
      const withAttr = spans.filter((span) => span.attributes['genkit:metadata:interrupt'] !== undefined).length;
      return `Two traces. Trace 1: one turn with two interrupts raised WITHOUT metadata — askUser (ai.defineInterrupt without requestMetadata) and confirmDelete (a tool calling ctx.interrupt() with no argument). Spans with a genkit:metadata:interrupt attribute in this file: ${withAttr}. The only evidence of the interrupts is the ToolInterruptError exception event on the tool spans and metadata.interrupt=true on the tool requests inside the generate's genkit:output (finishReason ${JSON.stringify(first.finishReason)}, interrupts: ${first.interrupts.length}). ${PAUSE} Trace 2: resume with respond for askUser (no span) and restart for confirmDelete (tool span with genkit:metadata:resumed=true, success), then the model answers text; finishReason ${JSON.stringify(second.finishReason)}.`;
    },
    notes: [`first.interrupts metadata: ${JSON.stringify(first.interrupts.map((part) => part.metadata))}`],
  };
});

await runCase('pending-output', async () => {
  const model = scriptedModel('pending-output', [
    [call('lookupAccount', 'la1', { name: 'bob' }), call('transferMoney', 'tx1', { to: 'bob', amount: 300 })],
    [say('Bob has 1200; transferred 300.')],
  ]);
  const first = await ai.generate({ model, prompt: 'Check bob and send him 300.', tools: [lookupAccount, transferMoney] });
  const modelMessage = first.messages.at(-1)!;
  const second = await ai.generate({
    model,
    messages: first.messages,
    tools: [lookupAccount, transferMoney],
    resume: { restart: [transferMoney.restart(first.interrupts[0], { approvedBy: 'dave' })] },
  });
  const toolMessage = second.messages.find((message) => message.role === 'tool');
  return {
    description: `Two traces. Trace 1: two parallel requests; lookupAccount#la1 finishes (success span) and transferMoney#tx1 interrupts. The returned model message parks lookupAccount's result as metadata.pendingOutput and marks transferMoney with metadata.interrupt (finishReason ${JSON.stringify(first.finishReason)}). ${PAUSE} Trace 2: resume with restart of transferMoney only; lookupAccount is NOT run again (no lookupAccount span in trace 2 — its pendingOutput is reused with source "pending"), transferMoney runs again with genkit:metadata:resumed. Resume tool message order: ${JSON.stringify(toolMessage?.content.map((part) => `${part.toolResponse?.name}#${part.toolResponse?.ref}${part.metadata?.source ? `(${part.metadata.source})` : ''}`))}. finishReason ${JSON.stringify(second.finishReason)}.`,
    notes: [`interrupted model message: ${JSON.stringify(modelMessage)}`, `resume tool message: ${JSON.stringify(toolMessage)}`],
  };
});

await runCase('multi-round', async () => {
  const model = scriptedModel('multi-round', [
    ...[0, 1, 2, 3].map((n) => [call('countStep', `s${n + 1}`, { n: n + 1 })]),
    [say('Counted four steps.')],
  ]);
  const response = await ai.generate({ model, prompt: 'Count four steps.', tools: [countStep] });
  return {
    description: `One trace, one generate call with 4 tool rounds (countStep#s1..s4, one per turn) then a text answer; finishReason ${JSON.stringify(response.finishReason)}. 5 model calls + 4 tool runs + 5 generate spans = 14 spans; each later turn is a generate span nested inside the previous one (depth grows with every round). Classify as one run with 4 sequential rounds, all success.`,
  };
});

await runCase('tool-error', async () => {
  const model = scriptedModel('tool-error', [[call('flakyBackend', 'f1', { query: 'orders' })], [say('unreachable')]]);
  const error = await expectFailure(() => ai.generate({ model, prompt: 'Query the orders.', tools: [flakyBackend] }));
  return {
    description: `One trace that FAILS. The tool flakyBackend#f1 throws new Error('boom: backend down'); genkit does not catch non-interrupt errors, so the whole generate fails. Error seen by the caller: ${errorText(error)}. The tool span is the failure source (status ERROR with that message, exception event of type Error); the root generate is also state=error. Classify the tool span as a real failure (contrast with the interrupt fixtures, whose exception type is ToolInterruptError and whose status message is empty).`,
    notes: [errorText(error)],
  };
});

await runCase('unknown-tool', async () => {
  const model = scriptedModel('unknown-tool', [[call('launchRocket', 'r1', { target: 'moon' })], [say('unreachable')]]);
  const error = await expectFailure(() => ai.generate({ model, prompt: 'Launch the rocket.', tools: [getWeather] }));
  return {
    description: (spans) =>
      `One trace that FAILS. The model requests launchRocket#r1, which is not registered and not offered (only getWeather is). Error seen by the caller: ${errorText(error)}. No tool span exists for launchRocket (spans: ${listSpans(spans)}); the failure is raised by the generate itself after the model span succeeded (exception event type "404"). Classify: the model asked for an unknown tool; the run failed at tool dispatch.`,
    notes: [errorText(error)],
  };
});

await runCase('invalid-input', async () => {
  const model = scriptedModel('invalid-input', [[call('addNumbers', 'add1', { a: 'one', b: 2 })], [say('unreachable')]]);
  const error = await expectFailure(() => ai.generate({ model, prompt: 'Add one and two.', tools: [addNumbers] }));
  return {
    description: (spans) =>
      `One trace that FAILS. The model calls addNumbers#add1 with {"a":"one","b":2} but the input schema requires a number. Error seen by the caller: ${errorText(error)}. Spans: ${listSpans(spans)}. There is NO addNumbers span: genkit validates the input before it opens the tool's action span, so the generate span itself is the failure source (exception event type "400", i.e. the GenkitError's HTTP-style code, not a class name). Classify: invalid tool input from the model → the run failed at tool dispatch; the tool never ran.`,
    notes: [errorText(error)],
  };
});

await runCase('max-turns', async () => {
  const model = scriptedModel('max-turns', [(n) => [call('ping', `p${n + 1}`, { seq: n + 1 })]]);
  const error = await expectFailure(() => ai.generate({ model, prompt: 'Ping forever.', tools: [ping], maxTurns: 2 }));
  const calls = modelRequests.get('max-turns')!.length;
  return {
    description: (spans) =>
      `One trace that FAILS. The model requests ping on every turn; maxTurns: 2. Model calls: ${calls}, tool runs: ${spans.filter((span) => span.attributes['genkit:metadata:subtype'] === 'tool').length}. Error seen by the caller: ${errorText(error)}. The last model span succeeds (its tool requests are never run); the innermost generate span fails with the ABORTED message and the failure propagates to every enclosing generate. Classify: loop limit reached (not a tool failure).`,
    notes: [errorText(error)],
  };
});

await runCase('unanswered-interrupt', async () => {
  const model = scriptedModel('unanswered-interrupt', [
    [call('askApproval', 'q1', { question: 'Ship order 7?' }), call('askApproval', 'q2', { question: 'Email the customer?' })],
    [say('unreachable')],
  ]);
  const first = await ai.generate({ model, prompt: 'Ship order 7 and tell the customer.', tools: [askApproval] });
  const q1 = first.interrupts.find((part) => part.toolRequest.ref === 'q1')!;
  const error = await expectFailure(() =>
    ai.generate({ model, messages: first.messages, tools: [askApproval], resume: { respond: [askApproval.respond(q1, { approved: true, by: 'erin' })] } }),
  );
  return {
    description: `Two traces. Trace 1: two interrupts in one turn (askApproval#q1 and askApproval#q2, both with genkit:metadata:interrupt); finishReason ${JSON.stringify(first.finishReason)}. ${PAUSE} Trace 2: the resume answers only q1 and FAILS before the model is called: ${errorText(error)}. Trace 2 is a single failed generate span (no model, no tool span). Classify: a resume that left an interrupt unanswered.`,
    notes: [errorText(error)],
  };
});

await runCase('bug1-restart-reinterrupts', async () => {
  const model = scriptedModel('bug1-restart-reinterrupts', [[call('lockVault', 'v1', { vault: 'main' })], [say('unreachable')]]);
  const first = await ai.generate({ model, prompt: 'Lock the main vault.', tools: [lockVault] });
  const error = await expectFailure(() =>
    ai.generate({ model, messages: first.messages, tools: [lockVault], resume: { restart: [lockVault.restart(first.interrupts[0], { code: '123456' })] } }),
  );
  return {
    description: (spans) =>
      `Genkit bug 1. Two traces. Trace 1: lockVault#v1 interrupts (genkit:metadata:interrupt); finishReason ${JSON.stringify(first.finishReason)}. ${PAUSE} Trace 2: resume with restart; lockVault runs again (span with genkit:metadata:resumed) and interrupts again because it never checks ctx.resumed. Instead of the intended FAILED_PRECONDITION "One or more tools triggered an interrupt during a restarted execution.", genkit 1.42 fails with ${errorText(error)}. Trace 2 spans: ${listSpans(spansOfTrace(spans, 1))} — TWO failure sources in one trace: the re-interrupting lockVault span (ToolInterruptError, empty status message, genkit:metadata:interrupt and genkit:metadata:resumed both set) and the root generate (TypeError). No model span in trace 2. Classify the restarted tool span as an interrupt (pause) and the resume generate as failed by a genkit bug, not by the tool.`,
    notes: [errorText(error)],
  };
});

await runCase('bug2-replace-input', async () => {
  const model = scriptedModel('bug2-replace-input', [
    [call('transferMoney', 'tx1', { to: 'bob', amount: 500 })],
    [say('Done.')],
  ]);
  const first = await ai.generate({ model, prompt: 'Send 500 to bob.', tools: [transferMoney] });
  const second = await ai.generate({
    model,
    messages: first.messages,
    tools: [transferMoney],
    resume: { restart: [transferMoney.restart(first.interrupts[0], { approvedBy: 'alice' }, { replaceInput: { to: 'bob', amount: 50 } })] },
  });
  const seen = modelRequests.get('bug2-replace-input')!.at(-1)!;
  const seenRequest = seen.messages.flatMap((message) => message.content).find((part) => part.toolRequest)!;
  const seenResponse = seen.messages.flatMap((message) => message.content).find((part) => part.toolResponse)!;
  return {
    description: `Genkit bug 2. Two traces. Trace 1: transferMoney#tx1 {to:"bob",amount:500} interrupts. Trace 2: resume with restart(…, {approvedBy:"alice"}, {replaceInput:{to:"bob",amount:50}}); the restarted tool span's genkit:input is the NEW input (amount 50). But the model's next request still shows the OLD request next to the new output: toolRequest ${JSON.stringify(seenRequest)} / toolResponse ${JSON.stringify(seenResponse)}. finishReason ${JSON.stringify(second.finishReason)}. Classify trace 2's tool span as a restart with replaced input (compare its genkit:input with the original request input).`,
    notes: [`model saw request ${JSON.stringify(seenRequest)}`, `model saw response ${JSON.stringify(seenResponse)}`],
  };
});

await runCase('bug3-mutated-messages', async () => {
  const model = scriptedModel('bug3-mutated-messages', [
    [call('lookupAccount', 'la1', { name: 'bob' }), call('transferMoney', 'tx1', { to: 'bob', amount: 300 })],
    [say('Bob has 1200; transferred 300.')],
  ]);
  const first = await ai.generate({ model, prompt: 'Check bob and send him 300.', tools: [lookupAccount, transferMoney] });
  const messages = first.messages; // one array object, reused as-is by both resume calls
  const before = JSON.stringify(messages.at(-1));
  const resume = { restart: [transferMoney.restart(first.interrupts[0], { approvedBy: 'alice' })] };
  const second = await ai.generate({ model, messages, tools: [lookupAccount, transferMoney], resume });
  const after = JSON.stringify(messages.at(-1));
  const error = await expectFailure(() => ai.generate({ model, messages, tools: [lookupAccount, transferMoney], resume }));
  return {
    description: (spans) => {
      const input = rootInput(spans, 1);
      return `Genkit bug 3. Three traces. Trace 1: lookupAccount#la1 finishes (pendingOutput) and transferMoney#tx1 interrupts; finishReason ${JSON.stringify(first.finishReason)}. Trace 2: resume with restart of transferMoney, passing the caller's messages array; it works (finishReason ${JSON.stringify(second.finishReason)}) but genkit mutated the caller's last model message in place: before ${before} — after ${after}. The first resume's root generate genkit:input ${input.includes('resolvedInterrupt') ? 'already shows "resolvedInterrupt"' : 'does NOT show resolvedInterrupt'}${input.includes('pendingOutput') ? ' and still shows pendingOutput' : ' and no longer shows pendingOutput'} (recorded at span end, after the mutation). Trace 3: retrying the SAME resume call with the same messages array FAILS: ${errorText(error)} — lookupAccount's pendingOutput was stripped, so it counts as unresolved. Worse, before failing genkit already RE-RAN the restarted transferMoney (trace 3 spans: ${listSpans(spansOfTrace(spans, 2))}): the side effect happened a second time although the call failed. Classify trace 3 as a failed resume caused by genkit mutating history; do not trust interrupt/pendingOutput metadata in recorded resume inputs — match on tool name + ref + input.`;
    },
    notes: [`before: ${before}`, `after: ${after}`, errorText(error)],
  };
});

await runCase('bug4-no-ref', async () => {
  const model = scriptedModel('bug4-no-ref', [
    [call('askApproval', undefined, { question: 'Refund order A-1?' }), call('askApproval', undefined, { question: 'Refund order B-2?' })],
    (_, request) => {
      const outputs = request.messages.flatMap((message) => message.content).filter((part) => part.toolResponse).map((part) => JSON.stringify(part.toolResponse.output));
      return [say(`I received: ${outputs.join(' and ')}`)];
    },
  ]);
  const first = await ai.generate({ model, prompt: 'Refund A-1 and B-2.', tools: [askApproval] });
  const [a, b] = first.interrupts;
  const second = await ai.generate({
    model,
    messages: first.messages,
    tools: [askApproval],
    resume: { respond: [askApproval.respond(a, { approved: true, by: 'alice' }), askApproval.respond(b, { approved: false, by: 'bob' })] },
  });
  const toolMessage = second.messages.find((message) => message.role === 'tool');
  const outputs = toolMessage?.content.map((part) => part.toolResponse?.output);
  return {
    description: `Genkit bug 4. Two traces. Trace 1: the model calls askApproval twice WITHOUT ref (inputs "Refund order A-1?" and "Refund order B-2?"); both interrupt; finishReason ${JSON.stringify(first.finishReason)}, interrupts: ${first.interrupts.length}. Trace 2: respond with two different outputs ({approved:true,by:"alice"} for A-1, {approved:false,by:"bob"} for B-2). Genkit matches responses by name+ref only, so the resume tool message holds ${JSON.stringify(outputs)} — ${JSON.stringify(outputs?.[0]) === JSON.stringify(outputs?.[1]) ? 'both requests received the FIRST answer' : 'the answers were kept apart'}. Model answer: ${JSON.stringify(second.text)}; finishReason ${JSON.stringify(second.finishReason)}. Classify: two ref-less calls of one tool cannot be told apart; Loopscope should flag the ambiguous pairing.`,
    notes: [`resume tool message: ${JSON.stringify(toolMessage)}`],
  };
});

await runCase('bug5-tool-alone', async () => {
  const error = await expectFailure(() => transferMoney({ to: 'mallory', amount: 9 }));
  const details = error instanceof Error ? { name: error.name, message: error.message, status: (error as { status?: unknown }).status, metadata: (error as { metadata?: unknown }).metadata, traceId: (error as { traceId?: unknown }).traceId !== undefined } : {};
  return {
    description: (spans) =>
      `Genkit bug 5. One trace: transferMoney called directly as an action (outside generate), so nothing catches its interrupt. The caller gets ${errorText(error)} (constructor ${error instanceof Error ? error.constructor.name : typeof error}, metadata ${JSON.stringify(details.metadata)}). Spans: ${spans.map((span) => `${span.name} type=${span.attributes['genkit:type']}/${span.attributes['genkit:metadata:subtype']} state=${span.attributes['genkit:state']} status=${span.status.code}${span.status.message !== undefined ? ` message=${JSON.stringify(span.status.message)}` : ''} interruptAttr=${span.attributes['genkit:metadata:interrupt'] ?? 'none'}`).join('; ')}. Its genkit:path is "/{transferMoney,t:action}" (no ",s:tool" in a root path; use genkit:metadata:subtype). Through genkit's reflection API (/api/runAction) the error would be answered as {code: 13 (INTERNAL, since ToolInterruptError has no status), message: "", details: {stack, traceId}} — no interrupt metadata (read from @genkit-ai/core reflection.mjs, not executed here). Classify: a root tool span that interrupted with no generate to resume it — an interrupt nobody can answer (shown as a dead-end pause, not as a generic failure).`,
    notes: [JSON.stringify(details)],
  };
});

await runCase('flow-two-generates', async () => {
  const model = scriptedModel('flow-two-generates', [
    (_, request) => (lastUserText(request).includes('Send')
      ? [call('transferMoney', 'tx9', { to: 'carol', amount: 75 })]
      : [call('getWeather', 'w9', { city: 'Oslo' })]),
    [say('Oslo: 4°C, snow.')],
  ]);
  const approvalFlow = ai.defineFlow(
    { name: 'approvalFlow', inputSchema: z.object({ city: z.string() }), outputSchema: z.object({ weather: z.string(), finishReason: z.string(), interrupts: z.number() }) },
    async ({ city }) => {
      const weather = await ai.generate({ model, prompt: `Weather in ${city}?`, tools: [getWeather] });
      const payment = await ai.generate({ model, prompt: 'Send 75 to carol.', tools: [transferMoney] });
      return { weather: weather.text, finishReason: payment.finishReason, interrupts: payment.interrupts.length };
    },
  );
  const output = await approvalFlow({ city: 'Oslo' });
  return {
    description: `One trace, one flow span (approvalFlow: genkit:type=action, genkit:metadata:subtype=flow, genkit:key=/flow/approvalFlow, genkit:path=/{approvalFlow,t:flow}) whose body runs two separate ai.generate calls: the first is a plain round (getWeather#w9 then text), the second interrupts at transferMoney#tx9 (finishReason ${JSON.stringify(output.finishReason)}). Both generates are direct children of the flow span (two top-level generates in one trace). The flow itself succeeds with output ${JSON.stringify(output)}. ${PAUSE} Classify: one flow run containing two generate calls, the second paused.`,
  };
});

await runCase('reflection-generate', async () => {
  const model = scriptedModel('reflection-generate', [[call('getWeather', 'w1', { city: 'Lima' })], [say('Lima: 19°C, overcast.')]]);
  const action = await ai.registry.lookupAction('/util/generate');
  if (!action) throw new Error('/util/generate is not registered');
  // Exactly what genkit's reflection server (/api/runAction) does: action.run(input, {context, telemetryLabels}).
  const result = await action.run(
    { model, messages: [{ role: 'user', content: [{ text: 'Weather in Lima?' }] }], tools: ['getWeather'] },
    { context: {} },
  );
  const output = result.result as { finishReason?: string };
  return {
    description: (spans) => {
      const root = spans.find((span) => span.parentSpanId === undefined);
      const rootAttrs = root ? `name=${root.name} genkit:type=${root.attributes['genkit:type']} genkit:metadata:subtype=${root.attributes['genkit:metadata:subtype']} genkit:key=${root.attributes['genkit:key']} genkit:path=${root.attributes['genkit:path']}` : 'none';
      return `One trace: a generate run as an action, the way genkit's reflection API (Dev UI "run action") does it: registry.lookupAction('/util/generate') then action.run(GenerateActionOptions, {context:{}}). Root span: ${rootAttrs}. This comes from defineGenerateAction (actionType "util") run through the generic action wrapper, which labels every action span genkit:type=action + genkit:metadata:subtype=<actionType>; a plain ai.generate instead opens a genkit:type=util span. Inside the root: the first model span and the getWeather tool span, then a nested generate (genkit:type=util) for turn 2. finishReason ${JSON.stringify(output.finishReason)}. Classify the root as a generate call.`;
    },
  };
});

await runCase('two-unrelated-runs', async () => {
  const model = scriptedModel('two-unrelated-runs', [
    (_, request) => [call('getWeather', 'w1', { city: lastUserText(request).includes('Oslo') ? 'Oslo' : 'Lima' })],
    (_, request) => [say(lastUserText(request).includes('Oslo') ? 'Oslo: 4°C, snow.' : 'Lima: 19°C, overcast.')],
  ]);
  const oslo = await ai.generate({ model, prompt: 'Weather in Oslo?', tools: [getWeather] });
  const lima = await ai.generate({ model, prompt: 'Weather in Lima?', tools: [getWeather] });
  return {
    description: (spans) => `Two independent plain runs in one file (two traces, ${spansOfTrace(spans, 0).length} + ${spansOfTrace(spans, 1).length} spans): "Weather in Oslo?" and "Weather in Lima?", each one getWeather#w1 round then text (finishReason ${JSON.stringify(oslo.finishReason)} / ${JSON.stringify(lima.finishReason)}). They share tool name and ref but are NOT a resume pair (neither was interrupted, the second's history does not contain the first's model message). Classify as two separate runs.`,
  };
});

// ---------------------------------------------------------------------------------------------

console.log(summary.join('\n'));
if (problems.length) {
  console.error(`\n${problems.length} problem(s):\n${problems.join('\n')}`);
  process.exitCode = 1;
}
