'use client';

import { useEffect, useMemo, useState } from 'react';
import type { ResumeCheckResponse, ResumePayload } from '@/lib/contract/resume-answers';
import type { TraceSource } from '@/lib/contract/trace-source';
import { apiJson } from './api-client';
import type { DraftAnswers } from './resume-answer-drafts';

/**
 * Every edit of the workbench's answers is checked by the server (POST /api/resume/check):
 * the rules of the runtime that recorded the call, what this runner can run, and the payload. Tool schemas come from the trace,
 * and their validators are compiled code, so they are compiled there, never in the page (its CSP
 * allows no eval). Checks are debounced; a stale answer is never shown as the current one.
 */
export function useResumeCheck(options: {
  source: TraceSource;
  generateSpanId: string;
  answers: DraftAnswers;
  /** False while the context loads or an answer is not JSON: nothing is checked then. */
  ready: boolean;
}): { validation?: ResumeCheckResponse; checkError?: string; shownPayload?: ResumePayload } {
  const { source, generateSpanId, answers, ready } = options;
  const [validation, setValidation] = useState<ResumeCheckResponse | undefined>();
  const [checkError, setCheckError] = useState<string | undefined>();
  // The last checked payload stays in view while an edit is being checked.
  const [shownPayload, setShownPayload] = useState<ResumePayload | undefined>();
  const checkBody = useMemo(() => JSON.stringify({ source, generateSpanId, ...answers }), [source, generateSpanId, answers]);
  useEffect(() => {
    setValidation(undefined);
    setCheckError(undefined);
    if (!ready) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      apiJson<ResumeCheckResponse>('/api/resume/check', { method: 'POST', body: JSON.parse(checkBody) as unknown, signal: controller.signal })
        .then((checked) => {
          setValidation(checked);
          setShownPayload(checked.payload);
        })
        .catch((error: Error) => {
          if (!controller.signal.aborted) setCheckError(error.message);
        });
    }, 120);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [checkBody, ready]);
  return { validation, checkError, shownPayload };
}
