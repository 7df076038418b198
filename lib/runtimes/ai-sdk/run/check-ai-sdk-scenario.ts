import type { AiSdkScenario } from '../../../contract/ai-sdk-scenario';
import type { AiSdkToolCatalog } from './load-ai-sdk-tools';

/**
 * What an AI SDK scenario names that tools/ai-sdk/ does not have, as load problems of its
 * file (`field: message`): an offered tool no module defines, an approval for a tool the
 * scenario does not offer, a `policy` without the module's `toolApproval` function, an answer
 * or repair for a call its script never makes. The scenario still loads (a problem is shown,
 * never fatal); a tool the *model* asks for without being offered is the NoSuchToolError
 * scenario's point, so script calls are not checked against the catalog.
 */
export function checkAiSdkScenario({ scenario, catalog }: { scenario: AiSdkScenario; catalog: AiSdkToolCatalog }): string[] {
  const problems: string[] = [];
  for (const [index, name] of scenario.tools.entries()) {
    if (!Object.hasOwn(catalog.tools, name)) problems.push(`tools.${index}: no module in tools/ai-sdk/ defines "${name}"`);
  }
  for (const [name, mode] of Object.entries(scenario.toolApproval ?? {})) {
    if (!scenario.tools.includes(name)) problems.push(`toolApproval.${name}: the scenario does not offer "${name}"`);
    else if (mode === 'policy' && !Object.hasOwn(catalog.policies, name)) problems.push(`toolApproval.${name}: "policy" needs a toolApproval.${name} function exported by the module that defines it`);
  }
  const calls = new Map(scenario.script.flatMap((turn) => turn.toolCalls ?? []).map((call) => [call.ref, call.name]));
  for (const [index, repair] of (scenario.repairs ?? []).entries()) {
    if (!calls.has(repair.ref)) problems.push(`repairs.${index}.ref: the script makes no call "${repair.ref}"`);
  }
  for (const [index, resume] of (scenario.resumes ?? []).entries()) {
    for (const kind of ['approve', 'deny', 'respond'] as const) {
      for (const [position, answer] of (resume[kind] ?? []).entries()) {
        if (calls.get(answer.toolCallId) !== answer.toolName) problems.push(`resumes.${index}.${kind}.${position}: the script makes no call ${answer.toolName}#${answer.toolCallId}`);
      }
    }
  }
  return problems;
}
