import type { AttachedSteps } from '../attach/attached-steps';
import type { GoRunnerService } from '../../runtimes/genkit-go/run/go-runner-service';
import type { RunnerSupervisor } from './runner-supervisor';
import type { StepCommand, StepCommandResult } from '../../runner/run-requests';

/** Where runs pause: the genkit Go runner, attached apps, and the node runners (the rest). */
export interface StepHosts {
  goRunner: Pick<GoRunnerService, 'holdsRun' | 'command'>;
  attachedSteps: Pick<AttachedSteps, 'holdsRun' | 'command'>;
  supervisor: Pick<RunnerSupervisor, 'command'>;
}

/** Sends a step command (decision, mode change, stop) to whatever holds the run's pauses. */
export function sendStepCommand(hosts: StepHosts, command: StepCommand): Promise<StepCommandResult> {
  if (hosts.goRunner.holdsRun(command.runId)) return hosts.goRunner.command(command);
  if (hosts.attachedSteps.holdsRun(command.runId)) return hosts.attachedSteps.command(command);
  return hosts.supervisor.command(command);
}
