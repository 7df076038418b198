/**
 * A small human-in-the-loop genkit app, the way a developer's own server would be written:
 * real `genkit/beta`, its spans exported by the standard OpenTelemetry NodeSDK +
 * OTLPTraceExporter configured only by the standard environment (OTEL_SERVICE_NAME,
 * OTEL_EXPORTER_OTLP_ENDPOINT). No Loopscope code. Run by make-app-fixtures.ts:
 *
 *   node --import tsx lib/graph/__fixtures__/apps/hitl-app.ts <case>
 *
 * Cases (each prints one JSON line with what genkit returned):
 * - `two-conversations`   A interrupts, B interrupts, B resumes, A resumes — same tool request
 *                         (transferMoney#t1 {to:bob, amount:500}), different user prompts.
 * - `identical-conversations`  the same, with identical prompts: content cannot tell them apart.
 * - `refless-conversations`    like two-conversations, but the model sets no `ref` (as genkit's
 *                         Gemini plugin does).
 * - `one-conversation`    one interrupt and its resume (run once per service for four-services).
 * - `flow-twice`          a flow that interrupts and resumes itself inside its own trace, run
 *                         twice at once (interleaved), with identical prompts.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { envDetector } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { disableGenkitOTelInitialization } from 'genkit/tracing';

disableGenkitOTelInitialization();
const sdk = new NodeSDK({
  spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter(), { scheduledDelayMillis: 50 })],
  instrumentations: [],
  // The env detector reads OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES, as in any app; the
  // host and process detectors are left out so the committed fixtures hold no host names.
  resourceDetectors: [envDetector],
});
sdk.start();

const { genkit, z } = await import('genkit/beta');
const ai = genkit({});
const caseName = process.argv[2] ?? '';
const refless = caseName === 'refless-conversations';

const transferMoney = ai.defineTool(
  {
    name: 'transferMoney',
    description: 'Transfers money; needs human approval (interrupts unless resumed).',
    inputSchema: z.object({ to: z.string(), amount: z.number() }),
    outputSchema: z.object({ status: z.string(), to: z.string(), amount: z.number(), approvedBy: z.string() }),
  },
  async ({ to, amount }, ctx) => {
    if (!ctx.resumed) ctx.interrupt({ reason: 'approval', to, amount });
    const resumed = ctx.resumed as { approvedBy?: string };
    return { status: 'sent', to, amount, approvedBy: resumed.approvedBy ?? 'someone' };
  },
);

// The model asks for the same transfer whatever the conversation, then confirms it.
ai.defineModel({ name: 'app/model', supports: { tools: true, multiturn: true } }, async (request) => {
  const answered = request.messages.some((message) => message.role === 'tool');
  if (!answered) {
    const toolRequest = refless ? { name: 'transferMoney', input: { to: 'bob', amount: 500 } } : { name: 'transferMoney', ref: 't1', input: { to: 'bob', amount: 500 } };
    return { message: { role: 'model', content: [{ toolRequest }] }, finishReason: 'stop' };
  }
  const response = request.messages.at(-1)?.content.find((part) => part.toolResponse)?.toolResponse?.output as { approvedBy?: string } | undefined;
  return { message: { role: 'model', content: [{ text: `Sent 500 to bob, approved by ${response?.approvedBy}.` }] }, finishReason: 'stop' };
});

type Response = Awaited<ReturnType<typeof ai.generate>>;

const start = (prompt: string) => ai.generate({ model: 'app/model', prompt, tools: [transferMoney] });
const resume = (interrupted: Response, approvedBy: string) =>
  ai.generate({
    model: 'app/model',
    messages: interrupted.messages,
    tools: [transferMoney],
    resume: { restart: interrupted.interrupts.map((interrupt) => transferMoney.restart(interrupt, { approvedBy })) },
  });
const outcome = (response: Response) => ({ finishReason: response.finishReason, text: response.text });

const results: Record<string, unknown> = {};
if (caseName === 'two-conversations' || caseName === 'identical-conversations' || caseName === 'refless-conversations') {
  const identical = caseName === 'identical-conversations';
  const a = await start(identical ? 'Send 500 to bob.' : 'Conversation A: send 500 to bob.');
  const b = await start(identical ? 'Send 500 to bob.' : 'Conversation B: send 500 to bob, please.');
  results.bResumed = outcome(await resume(b, 'bea'));
  results.aResumed = outcome(await resume(a, 'alice'));
  results.interrupted = [a.finishReason, b.finishReason];
} else if (caseName === 'one-conversation') {
  const interrupted = await start('Send 500 to bob.');
  results.interrupted = interrupted.finishReason;
  results.resumed = outcome(await resume(interrupted, process.env.OTEL_SERVICE_NAME ?? 'someone'));
} else if (caseName === 'flow-twice') {
  const bookingFlow = ai.defineFlow({ name: 'transferFlow', inputSchema: z.object({ approver: z.string() }), outputSchema: z.string() }, async ({ approver }) => {
    const interrupted = await start('Send 500 to bob.');
    // The approval arrives while the other run is also waiting: the two runs interleave.
    await new Promise((resolve) => setTimeout(resolve, 30));
    return (await resume(interrupted, approver)).text;
  });
  results.flows = await Promise.all([bookingFlow({ approver: 'first' }), bookingFlow({ approver: 'second' })]);
} else {
  console.error(`hitl-app: unknown case "${caseName}"`);
  process.exitCode = 2;
}
await sdk.shutdown();
console.log(JSON.stringify(results));
