/**
 * A scenario's scripted answer names the calls it answers by the ids the scripted model gave
 * them (`ref` for genkit, `toolCallId` for the AI SDK). A real model makes up its own ids
 * (`call_abc…`), so on a real model the scripted answer is applied by tool name instead: each
 * answer takes the first waiting call of that tool not yet answered, in the order the model made
 * them. An answer whose tool is not waiting is left as written, and the runtime says so.
 */
import type { AiSdkScriptedResume } from '../contract/ai-sdk-scenario';
import type { ResumeAnswers } from '../contract/resume-answers';

interface WaitingCall {
  name: string;
  id: string;
}

/** The waiting calls of a run's last outcome: genkit's interrupted tool request parts, or the AI SDK's pending calls. */
function waitingCalls(interrupts: readonly unknown[]): WaitingCall[] {
  const calls: WaitingCall[] = [];
  for (const interrupt of interrupts) {
    const value = interrupt as { toolRequest?: { name?: unknown; ref?: unknown }; toolName?: unknown; toolCallId?: unknown };
    if (typeof value.toolRequest?.name === 'string' && typeof value.toolRequest.ref === 'string') calls.push({ name: value.toolRequest.name, id: value.toolRequest.ref });
    else if (typeof value.toolName === 'string' && typeof value.toolCallId === 'string') calls.push({ name: value.toolName, id: value.toolCallId });
  }
  return calls;
}

/** Hands out the waiting calls' ids by tool name, each once. */
function idAllocator(interrupts: readonly unknown[]) {
  const left = waitingCalls(interrupts);
  return <Id extends string | undefined>(name: string, scriptedId: Id): string | Id => {
    const index = left.findIndex((call) => call.name === name);
    if (index < 0) return scriptedId;
    return left.splice(index, 1)[0].id;
  };
}

/** A genkit scripted answer (respond / restart by `ref`) aimed at the calls a real model made. */
export function retargetGenkitAnswer({ answer, interrupts }: { answer: ResumeAnswers; interrupts: readonly unknown[] }): ResumeAnswers {
  const idOf = idAllocator(interrupts);
  return {
    ...(answer.respond ? { respond: answer.respond.map((part) => ({ ...part, ref: idOf(part.name, part.ref) })) } : {}),
    ...(answer.restart ? { restart: answer.restart.map((part) => ({ ...part, ref: idOf(part.name, part.ref) })) } : {}),
  };
}

/** An AI SDK scripted answer (approve / deny / respond by `toolCallId`) aimed at the calls a real model made. */
export function retargetAiSdkAnswer({ answer, interrupts }: { answer: AiSdkScriptedResume; interrupts: readonly unknown[] }): AiSdkScriptedResume {
  const idOf = idAllocator(interrupts);
  const retarget = <Part extends { toolName: string; toolCallId: string }>(parts: Part[] | undefined) => parts?.map((part) => ({ ...part, toolCallId: idOf(part.toolName, part.toolCallId) }));
  return {
    ...(answer.approve ? { approve: retarget(answer.approve) } : {}),
    ...(answer.deny ? { deny: retarget(answer.deny) } : {}),
    ...(answer.respond ? { respond: retarget(answer.respond) } : {}),
  };
}
