/**
 * What each kind of attached genkit app (genkit's reflection API: JS, Go, Python) is to
 * Loopscope: whose dialect reads its traces, whether Loopscope's step plugin and the Apps page's
 * generate form exist for it, and how an answer to its pause is written for it. The attach
 * code and the Apps page ask this table; they never name a kind.
 */
import type { AttachedRuntimeKind } from '../../contract/runtimes';
import type { ResumePayload } from '../../contract/resume-answers';
import type { RecordedToolDefinition } from '../../loop/resume-model';
import { goAppResumePayload } from '../genkit-go/read/app-resume-input';
import { GENKIT_GO_DIALECT_ID } from '../genkit-go/read/dialect-id';
import { GENKIT_DIALECT_ID } from '../genkit-js/read/dialect-id';

export interface AttachedKind {
  /** For people: `genkit JS`. */
  title: string;
  /** The dialect that reads the traces an app of this kind records. */
  dialect: string;
  /** Loopscope's step plugin (`plugins: [loopscope()]`) exists for it: its generates and flows can be stepped, and the Apps page offers its generate form. */
  stepPlugin: boolean;
  /** An answer to its pause, as its `/util/generate` takes it (genkit Go wraps a typed tool's response in its multipart envelope). */
  resumePayload?(options: { payload: ResumePayload; tools: readonly RecordedToolDefinition[] }): ResumePayload;
}

export const ATTACHED_KINDS: Readonly<Record<AttachedRuntimeKind, AttachedKind>> = {
  'genkit-js': { title: 'genkit JS', dialect: GENKIT_DIALECT_ID, stepPlugin: true },
  'genkit-go': { title: 'genkit Go', dialect: GENKIT_GO_DIALECT_ID, stepPlugin: false, resumePayload: goAppResumePayload },
  // genkit Python writes genkit JS's span attributes: the genkit JS dialect reads its traces.
  'genkit-python': { title: 'genkit Python', dialect: GENKIT_DIALECT_ID, stepPlugin: false },
};

/** The kinds whose apps record traces of `dialect` (none: no attached app can answer its pauses). */
export function kindsRecording(dialect: string): AttachedRuntimeKind[] {
  return (Object.keys(ATTACHED_KINDS) as AttachedRuntimeKind[]).filter((kind) => ATTACHED_KINDS[kind].dialect === dialect);
}
