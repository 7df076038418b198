import type { ModelMessage } from 'ai';
import type { AiSdkScenario } from '../../../contract/ai-sdk-scenario';
import { traceGenerate, type SpanRef } from '../../../runner/answer-link';
import type { ProviderEndpoint } from '../../../runner/provider-endpoint';
import type { RunStepper } from '../../../runner/run-stepper';
import type { GenerateCommand, GenerateFailure, GenerateOutcome } from '../../../runner/runner-protocol';
import type { AiSdkToolCatalog } from './load-ai-sdk-tools';
import { runAiSdkCall } from './run-ai-sdk-call';

/**
 * One generate command of an AI SDK scenario in the runner: the first `generateText` call, or
 * the next one that answers the previous call's waiting calls (`command.aiSdkAnswers`) on its
 * messages. The answer call's root span links to the call it answers, as genkit resumes do
 * (lib/runner/answer-link.ts): the AI SDK itself records no link between the two traces.
 *
 * The outcome has the genkit run's shape (docs/architecture.md, wire contract): the finish
 * reason is the AI SDK's own (`tool-calls` when it stopped for an answer) and `interrupts` the
 * calls that wait, which is what makes the run "interrupted".
 */
export async function runAiSdkGenerate(options: {
  scenario: AiSdkScenario;
  catalog: AiSdkToolCatalog;
  command: GenerateCommand;
  toolTimeoutMs: number;
  approvalSecret?: string;
  /** Present for a step-by-step or breakpoint run: pauses before model calls and tool executions (step-hooks.ts). */
  stepper?: RunStepper;
  /** The runner's OpenAI-compatible endpoint, for a command with `provider`. */
  endpoint?: ProviderEndpoint;
  /** The user's Stop (lib/runner/request-stop.ts): `generateText`'s own abort signal. */
  abortSignal?: AbortSignal;
}): Promise<{ outcome?: GenerateOutcome; failure?: GenerateFailure; rootSpan?: SpanRef }> {
  const { command } = options;
  if (command.resume) {
    return { failure: { message: `Scenario "${options.scenario.name}" runs on the AI SDK: answer it with approve / deny / respond, not genkit's respond / restart.`, status: 'INVALID_ARGUMENT' } };
  }
  if (command.aiSdkAnswers && !command.messages) {
    return { failure: { message: 'An AI SDK answer needs the messages of the call it answers.', status: 'INVALID_ARGUMENT' } };
  }
  let rootSpan: SpanRef | undefined;
  const result = await traceGenerate({ answers: command.answers, onRootSpan: (root) => (rootSpan = root) }, () =>
    runAiSdkCall({
      scenario: options.scenario,
      catalog: options.catalog,
      approvalSecret: options.approvalSecret,
      toolTimeoutMs: options.toolTimeoutMs,
      // The server sends back the messages this runner (or another) returned: the AI SDK's own ModelMessage[].
      messages: command.messages as ModelMessage[] | undefined,
      answers: command.aiSdkAnswers,
      stepper: options.stepper,
      provider: command.provider,
      endpoint: options.endpoint,
      abortSignal: options.abortSignal,
    }),
  );
  if (result.failure) return { failure: result.failure, rootSpan };
  const outcome = result.outcome!;
  return { rootSpan, outcome: { finishReason: outcome.finishReason, text: outcome.text, interrupts: outcome.interrupts, messages: outcome.messages } };
}
