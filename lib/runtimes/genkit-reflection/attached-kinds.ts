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
  /**
   * Its app can register (dial in to the reflection door, or write its runtime file) before it has
   * defined all its actions, so its first action list may miss some: the registry lists it only
   * once two lists SETTLE_MS apart agree (lib/server/attach/runtime-registry.ts). A kind that
   * cannot is listed at its first list.
   */
  registersBeforeDefining: boolean;
}

export const ATTACHED_KINDS: Readonly<Record<AttachedRuntimeKind, AttachedKind>> = {
  // genkit JS starts its reflection API from genkit() but asynchronously (1.42: an import() of its
  // v2 client, then the WebSocket's open; v1: the HTTP server's listen callback writes the runtime
  // file), so it registers only after the module that called genkit(), and every module it
  // imported, ran to its end: the actions they define are all in its first list (measured: 20 of
  // 20 starts of two apps, docs/attach-runtimes.md). What an app defines after an `await` comes
  // later whatever the wait: the list is asked again at every describe a second on.
  'genkit-js': { title: 'genkit JS', dialect: GENKIT_DIALECT_ID, stepPlugin: true, registersBeforeDefining: false },
  // genkit Go registers in genkit.Init, which returns before the app defines its flows and tools.
  'genkit-go': { title: 'genkit Go', dialect: GENKIT_GO_DIALECT_ID, stepPlugin: false, resumePayload: goAppResumePayload, registersBeforeDefining: true },
  // genkit Python writes genkit JS's span attributes: the genkit JS dialect reads its traces. It
  // registers from its reflection thread while app.py is still defining its flows (measured: a
  // first list of 4 of 8 actions, docs/attach-runtimes.md).
  'genkit-python': { title: 'genkit Python', dialect: GENKIT_DIALECT_ID, stepPlugin: false, registersBeforeDefining: true },
};

/** The kinds whose apps record traces of `dialect` (none: no attached app can answer its pauses). */
export function kindsRecording(dialect: string): AttachedRuntimeKind[] {
  return (Object.keys(ATTACHED_KINDS) as AttachedRuntimeKind[]).filter((kind) => ATTACHED_KINDS[kind].dialect === dialect);
}
