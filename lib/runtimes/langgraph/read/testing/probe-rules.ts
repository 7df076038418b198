/**
 * LangGraph's answer probes (lib/runtimes/langgraph/__fixtures__/answer-probes.json) as the
 * answers Loopscope checks, under each of LangGraph's instrumentations: each probe's pause is the
 * recorded fixture of the same case (`genai-<case>`, `openinference-<case>`), its neutral answers
 * the workbench's (approve, deny, result → respond, resume → the interrupt's resume value). For
 * tests only.
 */
import { expect } from 'vitest';
import type { ResumeContext } from '../../../../loop/resume-model';
import { checkAnswers, firstSentence, pausedContext, type AnswerProbeRules, type ProbeCheck } from '../../../testing/answer-probe-rules';
import { loopscopeAnswers } from '../../../testing/answer-probes';

type LangGraphCheck = ProbeCheck & { context: ResumeContext; resume: Record<string, unknown> };

/** A resume map keyed by tool call id instead of interrupt id (the ids differ from run to run; the calls do not). */
function byCall(options: { resume: Record<string, unknown>; callOf: (interruptId: string) => string | undefined }): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options.resume).map(([key, value]) => [options.callOf(key) ?? key, value]));
}

/** LangGraph's reading of its probes under one instrumentation, for describe-answer-probe-rules.ts and describe-live-answer-probes.ts. */
function probeRulesUnder(instrumentation: 'genai' | 'openinference'): AnswerProbeRules<LangGraphCheck> {
  return {
    runtime: 'langgraph',
    framework: `LangGraph (${instrumentation === 'genai' ? 'GenAI' : 'OpenInference'} spans)`,
    inexpressible: [],
    async check(probe) {
      const { request } = probe;
      const context = await pausedContext({ runtime: 'langgraph', fixture: `${instrumentation}-${request.case}` });
      const checked = checkAnswers({ context, answers: loopscopeAnswers({ request, context }), case: request.case });
      // The code runs on the probe's own pause: the recorded interrupt ids and thread it names are replaced by the pause's.
      const interrupts = Object.fromEntries(context.requests.filter((candidate) => candidate.pauseId !== undefined).map((candidate) => [candidate.pauseId, candidate.ref]));
      return { ...checked, resume: (checked.validation.payload.answer as { resume: Record<string, unknown> }).resume, snippet: { ...checked.snippet!, interrupts, thread: context.conversationId } };
    },
    refusal(result) {
      // A refused value's ValidationError names a pydantic model of LangGraph's that the trace does not: its type is what Loopscope can say.
      if (result.error?.type === 'ValidationError') return 'LangGraph would raise ValidationError';
      return `${result.error?.type}: ${firstSentence(result.error?.message ?? '')}`;
    },
    agrees({ probe, check }) {
      if (!probe.result.accepted) return;
      // The values Loopscope sends are what LangGraph was sent, call by call.
      const sent = probe.result.sent as { resume: Record<string, unknown> };
      const pending = probe.result.pendingBefore as { interruptId: string; toolCallId: string }[];
      expect(byCall({ resume: check.resume, callOf: (id) => check.context.requests.find((candidate) => candidate.pauseId === id)?.ref })).toEqual(
        byCall({ resume: sent.resume, callOf: (id) => pending.find((item) => item.interruptId === id)?.toolCallId }),
      );
    },
    // The interrupts left: their ids are new in every run, their number is not.
    stable: (result) => ({ pendingAfter: (result.pendingAfter ?? []).length, finalText: result.finalText }),
    snippetAgrees({ probe, snippet }) {
      expect({ pendingAfter: (snippet.pendingAfter ?? []).length, finalText: snippet.finalText }).toEqual({ pendingAfter: (probe.result.pendingAfter ?? []).length, finalText: probe.result.finalText });
    },
  };
}

/** LangGraph's probes read under each instrumentation: its rules must agree with LangGraph under both. */
export const probeRules = { genai: probeRulesUnder('genai'), openinference: probeRulesUnder('openinference') };
