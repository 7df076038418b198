/**
 * The workbench's answers as the user writes them (JSON text per field) and the answers they
 * make once every field parses: a field that is not JSON is named as such, and nothing is
 * checked against genkit's rules until all parse. Pure.
 */
import type { ApproveAnswer, DenyAnswer, RespondAnswer, RestartAnswer, ValueAnswer } from '@/lib/contract/resume-answers';
import type { AnswerKind, ResumeContextView } from '@/lib/contract/resume-context';

/** genkit answers by respond / restart; the AI SDK by approve / deny / respond; LangGraph and ADK also by a resume value (the context's dialect says which). */
export type AnswerMode = AnswerKind['kind'];

export interface AnswerDraft {
  mode: AnswerMode;
  output: string;
  /** approve / deny: the reason (the model sees a denial's). */
  reason: string;
  resumed: string;
  replace: boolean;
  replaceInput: string;
  /** value: the resume value, as JSON text. */
  value: string;
}

export const label = (request: { name: string; ref?: string }) => (request.ref ? `${request.name}#${request.ref}` : request.name);

function parse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

type Request = ResumeContextView['requests'][number];

/** The draft an interrupted request starts with: the kind its runtime suggests for it (else its first), an output made from the tool's schema. */
export function defaultDraft(request: Request | undefined, kinds: readonly AnswerKind[]): AnswerDraft {
  return {
    mode: request?.defaultKind ?? kinds[0]?.kind ?? 'respond',
    reason: '',
    output: JSON.stringify(request?.outputExample ?? {}, null, 2),
    resumed: request?.resumedExample === undefined ? 'true' : JSON.stringify(request.resumedExample, null, 2),
    replace: false,
    replaceInput: JSON.stringify(request?.input ?? {}, null, 2),
    value: JSON.stringify(request?.valueExample ?? {}, null, 2),
  };
}

/** The answers the drafts make for the interrupted requests, or what is not JSON in them. */
export interface DraftAnswers {
  respond: RespondAnswer[];
  restart: RestartAnswer[];
  approve: ApproveAnswer[];
  deny: DenyAnswer[];
  values: ValueAnswer[];
}

export function answersFromDrafts(options: { requests: readonly Request[]; draftOf: (key: string) => AnswerDraft }): {
  answers: DraftAnswers;
  parseErrors: string[];
} {
  const respond: RespondAnswer[] = [];
  const restart: RestartAnswer[] = [];
  const approve: ApproveAnswer[] = [];
  const deny: DenyAnswer[] = [];
  const values: ValueAnswer[] = [];
  const errors: string[] = [];
  for (const request of options.requests.filter((candidate) => candidate.state === 'interrupted')) {
    const key = label(request);
    const draft = options.draftOf(key);
    const reason = draft.reason.trim() === '' ? {} : { reason: draft.reason };
    if (draft.mode === 'approve') approve.push({ name: request.name, ref: request.ref, ...reason });
    else if (draft.mode === 'deny') deny.push({ name: request.name, ref: request.ref, ...reason });
    else if (draft.mode === 'value') {
      const value = parse(draft.value);
      if (value.ok) values.push({ name: request.name, ref: request.ref, value: value.value });
      else errors.push(`${key}: the resume value is not valid JSON (${value.error}).`);
    } else if (draft.mode === 'respond') {
      const output = parse(draft.output);
      if (output.ok) respond.push({ name: request.name, ref: request.ref, output: output.value });
      else errors.push(`${key}: the output is not valid JSON (${output.error}).`);
    } else {
      const resumed = parse(draft.resumed);
      const replaceInput = draft.replace ? parse(draft.replaceInput) : undefined;
      if (!resumed.ok) errors.push(`${key}: the resumed metadata is not valid JSON (${resumed.error}).`);
      else if (replaceInput && !replaceInput.ok) errors.push(`${key}: the replacement input is not valid JSON (${replaceInput.error}).`);
      else restart.push({ name: request.name, ref: request.ref, resumed: resumed.value, replaceInput: replaceInput?.ok ? replaceInput.value : undefined });
    }
  }
  return { answers: { respond, restart, approve, deny, values }, parseErrors: errors };
}
