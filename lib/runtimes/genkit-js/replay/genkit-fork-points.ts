import type { ForkPoints } from '../../runtime-driver';
import type { Recording } from '../read/recording';

/** The tool runs and finished model answers of a genkit recording (JS or Go) a fork may replace. */
export function genkitForkPoints(recording: unknown): ForkPoints {
  const { steps } = recording as Recording;
  return {
    tools: steps.flatMap((step) => step.toolExecutions).map((execution) => ({ key: `${execution.traceId}:${execution.spanId}`, name: execution.name, outcome: execution.outcome.kind })),
    models: steps
      .flatMap((step) => (step.kind === 'generate' ? step.modelCalls : []))
      .flatMap((call) => (call.response ? [{ key: `${call.traceId}:${call.spanId}`, ordinal: call.ordinal, response: call.response as Record<string, unknown> }] : [])),
  };
}
