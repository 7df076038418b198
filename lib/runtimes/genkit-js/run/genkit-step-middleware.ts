/**
 * genkit's side of step-by-step runs: its own `generateMiddleware` pauses before every model
 * call and tool execution the run's mode asks for (RunStepper holds the pauses), a
 * hand-written model plays answers written at a pause, and decisions are checked against the
 * registered tools' schemas.
 */
import { trace } from '@opentelemetry/api';
import { generateMiddleware, ToolInterruptError, type GenkitBeta } from 'genkit/beta';
// The middleware's name is part of the attach wire (the server names it in a generate's `use`).
import { STEP_MIDDLEWARE } from '../../../contract/attach-step';
import type { RunStepper } from '../../../runner/run-stepper';
import type { PauseAction, PauseDecision, PauseInfo } from '../../../runner/step-protocol';
import { ANSWERED_BY_HAND_ATTRIBUTE, HAND_WRITTEN_MODEL } from '../read/loopscope-markers';

/** What genkit can do at its pauses: a model answer replaced; a tool's input edited, answered, interrupted (a real genkit interrupt) or failed. */
const GENKIT_MODEL_ACTIONS: PauseAction[] = ['continue', 'replace-answer'];
const GENKIT_TOOL_ACTIONS: PauseAction[] = ['continue', 'edit-input', 'answer', 'interrupt', 'fail'];

/** Records a hand-written tool answer as a tool span, marked as such (the tool never ran). */
function recordHandAnswer({ name, input, output }: { name: string; input: unknown; output: unknown }): void {
  const span = trace.getTracer('genkit-tracer').startSpan(name, {
    attributes: {
      'genkit:type': 'action',
      'genkit:metadata:subtype': 'tool',
      'genkit:name': name,
      'genkit:input': JSON.stringify(input),
      'genkit:output': JSON.stringify(output),
      'genkit:state': 'success',
      [ANSWERED_BY_HAND_ATTRIBUTE]: 'true',
    },
  });
  span.end();
}

interface SchemaLike {
  safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** Validates a value against a registered tool's schema; returns the first problem, if any. */
async function schemaProblem({ ai, toolName, which, value }: { ai: GenkitBeta; toolName: string; which: 'inputSchema' | 'outputSchema'; value: unknown }): Promise<string | undefined> {
  const action = (await ai.registry.lookupAction(`/tool/${toolName}`)) as unknown as { __action?: Record<string, unknown> } | undefined;
  if (!action) return toolName === '' ? undefined : `no tool named ${toolName} is registered`;
  const schema = action.__action?.[which] as SchemaLike | undefined;
  if (!schema?.safeParse) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error?.issues[0];
  return issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'does not match the schema';
}

/**
 * Checks a decision against the runtime's rules before it is applied: inputs and outputs
 * against the tool's schemas, tool requests against the registered tools. Returns the
 * problems; a decision with `force` is applied anyway (to see genkit's own reaction).
 */
export async function checkDecision({ ai, pause, decision }: { ai: GenkitBeta; pause: PauseInfo; decision: PauseDecision }): Promise<string[]> {
  const problems: string[] = [];
  if (decision.action === 'replace-answer') {
    if (pause.kind !== 'model') problems.push('replace-answer is for a model pause');
    for (const part of decision.parts) {
      if (!('toolRequest' in part)) continue;
      const problem = await schemaProblem({ ai, toolName: part.toolRequest.name, which: 'inputSchema', value: part.toolRequest.input });
      if (problem) problems.push(`${part.toolRequest.name}#${part.toolRequest.ref}: ${problem}`);
    }
  } else if (decision.action !== 'continue') {
    if (pause.kind !== 'tool' || !pause.tool) problems.push(`${decision.action} is for a tool pause`);
    else if (decision.action === 'edit-input') {
      const problem = await schemaProblem({ ai, toolName: pause.tool.name, which: 'inputSchema', value: decision.input });
      if (problem) problems.push(`input: ${problem}`);
    } else if (decision.action === 'answer') {
      const problem = await schemaProblem({ ai, toolName: pause.tool.name, which: 'outputSchema', value: decision.output });
      if (problem) problems.push(`output: ${problem}`);
    }
  }
  return problems;
}

/**
 * What the step hooks ask of a stepper: the runner's RunStepper (its pauses held in the
 * runner), or an attached app's remote one (lib/runtimes/genkit-js/app-plugin: its pauses held by the
 * Loopscope server, asked over HTTP).
 */
export type StepperPort = Pick<RunStepper, 'nextModelTurn' | 'wantsModelPause' | 'wantsToolPause' | 'pause'>;


/**
 * The hooks that pause before every model call and tool execution the run's mode asks for,
 * and carry out the decision: genkit's own middleware hooks, so the loop itself is genkit's,
 * never re-implemented.
 */
export function stepHooks(ai: GenkitBeta, stepper: StepperPort): GenerateMiddlewareHooks {
  return {
    // eslint-disable-next-line @typescript-eslint/max-params -- genkit's middleware hook signature
    model: async (request, context, next) => {
      const turn = stepper.nextModelTurn();
      if (!stepper.wantsModelPause(turn)) return next(request, context);
      const decision = await stepper.pause({ kind: 'model', modelTurn: turn, actions: GENKIT_MODEL_ACTIONS });
      if (decision.action !== 'replace-answer') return next(request, context);
      // A real model span named loopscope/hand-written records that this answer was written by hand.
      const model = (await ai.registry.lookupAction(`/model/${HAND_WRITTEN_MODEL}`)) as unknown as (input: unknown) => Promise<unknown>;
      return (await model({ ...request, config: { ...(request.config ?? {}), parts: decision.parts } })) as Awaited<ReturnType<typeof next>>;
    },
    // eslint-disable-next-line @typescript-eslint/max-params -- genkit's middleware hook signature
    tool: async (request, context, next) => {
      const { name, ref, input } = request.toolRequest;
      if (!stepper.wantsToolPause(name)) return next(request, context);
      const decision = await stepper.pause({ kind: 'tool', tool: { name, ref, input }, actions: GENKIT_TOOL_ACTIONS });
      switch (decision.action) {
        case 'continue':
          return next(request, context);
        case 'edit-input':
          return next({ ...request, toolRequest: { ...request.toolRequest, input: decision.input } }, context);
        case 'answer':
          recordHandAnswer({ name, input, output: decision.output });
          return { toolResponse: { name, ref, output: decision.output } };
        case 'interrupt':
          // A breakpoint becomes a real, serialisable genkit interrupt (answer it by respond/restart).
          throw new ToolInterruptError((decision.metadata ?? { pausedBy: 'loopscope' }) as Record<string, unknown>);
        case 'fail':
          throw new Error(decision.message);
        default:
          return next(request, context);
      }
    },
  };
}

type GenerateMiddlewareHooks = ReturnType<Parameters<typeof generateMiddleware>[1]>;

/** genkit middleware for one run of the runner, on its RunStepper. */
export function stepMiddleware(ai: GenkitBeta, stepper: RunStepper) {
  return generateMiddleware({ name: STEP_MIDDLEWARE }, () => stepHooks(ai, stepper));
}

/** Defines the model that plays hand-written answers (parts passed in its config). */
export function defineHandWrittenModel(ai: GenkitBeta) {
  return ai.defineModel({ name: HAND_WRITTEN_MODEL, label: 'Hand-written answer', supports: { tools: true, multiturn: true } }, async (request) => {
    const parts = ((request.config ?? {}) as { parts?: unknown[] }).parts ?? [];
    return { message: { role: 'model' as const, content: parts as never[] }, finishReason: 'stop' as const };
  });
}
