/**
 * Mastra (Node): the spans of `@mastra/otel-exporter` (scope `@mastra/otel-exporter`) read by the
 * shared GenAI-loop reader with Mastra's flavor (mastra-flavor.ts: its own span types, its
 * approvals and suspensions, its answering runs nested in the paused run's trace), answered by
 * Mastra's rules (resume-rules.ts: approveToolCall, declineToolCall, resumeStream). What each
 * records is in docs/guides/mastra.md.
 */
import { loopDialect } from '../../genai-loop/loop-dialect';
import { MASTRA_DIALECT_ID, MASTRA_SCOPE, mastraFlavor } from './mastra-flavor';
import { mastraResumeRules } from './resume-rules';

export { MASTRA_DIALECT_ID, MASTRA_SCOPE, mastraFlavor };

export const mastra = loopDialect({ ...mastraFlavor, resume: mastraResumeRules });
