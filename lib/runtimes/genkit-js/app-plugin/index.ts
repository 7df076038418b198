/**
 * The one line a genkit JS app adds to be stepped by Loopscope (issue 16, item 4):
 *
 * ```ts
 * import { loopscope } from 'loopscope/genkit';
 * const ai = genkit({ plugins: [loopscope()] });
 * ```
 *
 * It registers Loopscope's step middleware in the app (`loopscope/step`, the same hooks as the
 * built-in runner's: genkit-step-middleware.ts) and the model that plays hand-written answers.
 * Nothing changes for the app's own calls: the middleware acts only on a generate Loopscope
 * starts through the app's reflection API with `use: [{ name: 'loopscope/step', config }]`,
 * where `config` names the run and carries its step token. At every model call and tool
 * execution it asks the Loopscope server whether to pause (the server holds the run's mode),
 * waits for the developer's decision, checks it against the app's own tool schemas, and
 * carries it out (lib/contract/attach-step.ts is the wire).
 */
import { trace } from '@opentelemetry/api';
import type { Genkit } from 'genkit';
import { generateMiddleware, type GenkitBeta } from 'genkit/beta';
import { genkitPlugin, type GenkitPlugin } from 'genkit/plugin';
import { AttachStepConfigSchema, STEP_CONTEXT_KEY, STEP_MIDDLEWARE, type AttachHookRequest } from '../../../contract/attach-step';
import { checkDecision, defineHandWrittenModel, stepHooks } from '../run/genkit-step-middleware';
import { RemoteStepper } from '../../../runner/remote-stepper';
import { genkitCore } from './genkit-core';

/** The active span's trace (the generate's): the server adds it to the run, so the page follows it live. */
function activeTraceId(): string | undefined {
  const traceId = trace.getActiveSpan()?.spanContext().traceId;
  return traceId && !/^0+$/.test(traceId) ? traceId : undefined;
}

/** What an SDK span exposes (genkit 1.42 carries sdk-trace-base 1.x: `parentSpanId`; 2.x: `parentSpanContext`). */
interface StartedSpan {
  name?: unknown;
  attributes?: Record<string, unknown>;
  startTime?: unknown;
  parentSpanId?: unknown;
  parentSpanContext?: { spanId?: unknown };
}

/** The active span's start (the generate a step is in), as the server's open spans read it; undefined when there is none. */
function activeSpanStart(): AttachHookRequest['openSpan'] {
  const active = trace.getActiveSpan();
  const spanId = active?.spanContext().spanId;
  if (!active || !spanId || /^0+$/.test(spanId)) return undefined;
  const span = active as unknown as StartedSpan;
  const [seconds, nanos] = Array.isArray(span.startTime) ? (span.startTime as number[]) : [0, 0];
  const parent = typeof span.parentSpanId === 'string' ? span.parentSpanId : span.parentSpanContext?.spanId;
  const attributes: Record<string, string> = {};
  for (const [key, value] of Object.entries(span.attributes ?? {})) attributes[key] = typeof value === 'string' ? value : JSON.stringify(value);
  return {
    spanId,
    ...(typeof parent === 'string' && parent ? { parentSpanId: parent } : {}),
    name: typeof span.name === 'string' ? span.name : 'span',
    attributes,
    startTimeUnixNano: (BigInt(seconds ?? 0) * 1_000_000_000n + BigInt(nanos ?? 0)).toString(),
  };
}

/** The middleware as the app registers it: each generate that names it gets a stepper for its run. */
const appStepMiddleware = generateMiddleware({ name: STEP_MIDDLEWARE, description: 'Loopscope: pauses a generate Loopscope started before each model call and tool execution.' }, ({ config, ai }) => {
  const parsed = AttachStepConfigSchema.safeParse(config);
  if (!parsed.success) throw new Error(`The ${STEP_MIDDLEWARE} middleware needs the config Loopscope gives it ({runId, url, token}): ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
  const beta = ai as unknown as GenkitBeta;
  const stepper = new RemoteStepper({
    config: parsed.data,
    check: ({ pause, decision }) => checkDecision({ ai: beta, pause, decision }),
    whereabouts: () => ({ traceId: activeTraceId(), openSpan: activeSpanStart() }),
  });
  return stepHooks(beta, stepper);
});

type GenerateArgument = Parameters<Genkit['generate']>[0];

/**
 * A generate inside a flow Loopscope runs stepped (its config in the flow's action context) gets
 * the step middleware; any other generate is left exactly as the app wrote it.
 */
function withStepMiddleware(options: GenerateArgument): GenerateArgument {
  const parsed = AttachStepConfigSchema.safeParse((genkitCore().getContext() as Record<string, unknown> | undefined)?.[STEP_CONTEXT_KEY]);
  if (!parsed.success) return options;
  if (typeof options !== 'object' || options === null || Array.isArray(options) || 'then' in options) return options;
  const use = (options as { use?: unknown[] }).use ?? [];
  if (use.some((middleware) => typeof middleware === 'object' && middleware !== null && (middleware as { name?: unknown }).name === STEP_MIDDLEWARE)) return options;
  return { ...options, use: [...use, { name: STEP_MIDDLEWARE, config: parsed.data }] } as GenerateArgument;
}

/**
 * The plugin: `genkit({ plugins: [loopscope()] })`. Registers the step middleware at once (a
 * generate may name it before any plugin was initialized) and the hand-written answer model, and
 * lets the app's own `ai.generate` / `ai.generateStream` calls be stepped while a flow Loopscope
 * runs stepped calls them (genkit has no app-wide middleware: the two methods are wrapped, and
 * pass every other call through unchanged).
 */
export function loopscope(): GenkitPlugin {
  const plugin = genkitPlugin('loopscope', async (ai) => {
    defineHandWrittenModel(ai as unknown as GenkitBeta);
  });
  return (ai: Genkit) => {
    ai.registry.registerValue('middleware', STEP_MIDDLEWARE, appStepMiddleware);
    const generate = ai.generate.bind(ai);
    const generateStream = ai.generateStream.bind(ai);
    ai.generate = ((options: GenerateArgument) => generate(withStepMiddleware(options))) as Genkit['generate'];
    ai.generateStream = ((options: Parameters<Genkit['generateStream']>[0]) => generateStream(withStepMiddleware(options as GenerateArgument) as never)) as Genkit['generateStream'];
    return plugin(ai);
  };
}
