/**
 * Where a runtime's calls run on this server: the node runner pool (genkit JS, the AI SDK) or the
 * runtime's own host (the genkit Go runner). Services ask here by what a runtime's driver says
 * (`runsIn`), never by which runtime it is.
 */
import type { RealModelChoice } from '../../contract/provider';
import { LoopscopeError } from '../../errors';
import type { GenerateResult } from '../../runner/run-requests';
import type { GenerateCommand } from '../../runner/runner-protocol';
import type { RunMode } from '../../runner/step-protocol';
import type { Scenario } from '../../runner/scenario';
import { scenarioRuntime } from '../../contract/scenario';
import { driverOf } from '../../runtimes/drivers';
import type { ScenarioSupport } from '../../runtimes/runtime-driver';
import type { AppContext } from '../app-context-ports';

/** A generate for a host: a scenario's call, or the next call of a run that answers the last one. */
export type HostGenerate = Pick<GenerateCommand, 'scenario' | 'messages' | 'resume' | 'aiSdkAnswers' | 'answers' | 'model' | 'tools'> & { runId: string; mode?: RunMode; provider?: RealModelChoice };

export interface RunHost {
  generate(command: HostGenerate): Promise<GenerateResult>;
}

type Hosts = Pick<AppContext, 'supervisor' | 'goRunner'>;

/** The host of `runsIn`: the node pool, or the runtime's own (the genkit Go runner, the only one so far). */
export function runHost(context: Hosts, runsIn: ScenarioSupport['runsIn']): RunHost {
  if (runsIn === 'node-runner') return { generate: (command) => context.supervisor.generate(command) };
  return {
    // A Go call without a mode gets no step middleware, as a node run straight through gets none.
    generate: ({ scenario, messages, resume, answers, runId, mode }) =>
      context.goRunner.generate({ scenario, messages, resume: resume as never, answers, runId, ...(mode && mode.kind !== 'run' ? { mode } : {}) }),
  };
}

/** A scenario by name, in the runtime host that has it (checked first: one stat) or the node runners' catalog; with its driver's support. */
export async function scenarioNamed(context: Hosts, name: string): Promise<{ scenario: Scenario; support: ScenarioSupport } | undefined> {
  const scenario: Scenario | undefined = (await context.goRunner.scenarioNamed(name)) ?? (await nodeScenario(context, name));
  if (!scenario) return undefined;
  const support = driverOf(scenarioRuntime(scenario))?.scenarios;
  if (!support) throw new LoopscopeError('FAILED_PRECONDITION', `Scenario "${name}" is of ${scenarioRuntime(scenario)}, whose scenarios Loopscope does not run.`);
  return { scenario, support };
}

/** A scenario a run already started (read when it started: no directory scan), with its driver's support. */
export function knownScenario(context: Hosts, name: string): { scenario: Scenario; support: ScenarioSupport } | undefined {
  const scenario: Scenario | undefined = context.goRunner.knownScenario(name) ?? context.supervisor.status.scenarios.find((candidate) => candidate.name === name);
  const support = scenario ? driverOf(scenarioRuntime(scenario))?.scenarios : undefined;
  return scenario && support ? { scenario, support } : undefined;
}

async function nodeScenario(context: Hosts, name: string): Promise<Scenario | undefined> {
  await context.supervisor.whenReady(15_000);
  return context.supervisor.status.scenarios.find((candidate) => candidate.name === name);
}
