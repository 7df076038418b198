/**
 * Strands Agents (Python): its own tracer's spans (scope `strands.telemetry.tracer`) read by the
 * shared GenAI-loop reader with Strands' flavor (strands-flavor.ts: its content modes, its
 * interrupts — held by a hook, approval required by the HumanInTheLoop intervention, an interrupt
 * inside a tool — and the answering run linked by tool use id), answered by Strands' rules for
 * interrupt responses (resume-rules.ts). docs/guides/strands.md says what each records.
 */
import { loopDialect } from '../../genai-loop/loop-dialect';
import { STRANDS_DIALECT_ID } from './dialect-id';
import { strandsFlavor, STRANDS_SCOPE } from './strands-flavor';
import { strandsResumeRules } from './resume-rules';

export { STRANDS_DIALECT_ID, STRANDS_SCOPE, strandsFlavor };

export const strands = loopDialect({ ...strandsFlavor, resume: strandsResumeRules });
