/**
 * Strands Agents' rules for answering a paused run, as the framework applies them
 * (docs/guides/strands.md, "Answering a pause"; each rule checked against Strands itself by the
 * answer probes in lib/runtimes/strands/__fixtures__/answer-probes.json). Strands answers an
 * interrupt, not a call: the answer is the agent called again with a list of
 * `{"interruptResponse": {"interruptId", "response"}}` blocks. Here an answer names the paused
 * call (its tool use id); the rules turn it into its interrupt's id.
 *
 * Refused by Strands (the whole answer, with its own error): an `interruptId` that is no pending
 * interrupt (`KeyError: 'interrupt_id=<…> | no interrupt found'` — a call that ran, an unknown
 * id); a block without a `response` (`KeyError: 'response'`). Accepted: anything else; what a
 * response means is up to the hook, intervention or tool that asked. Accepted but worth a warning:
 * an interrupt left unanswered or answered with `None` (the run pauses again on it), one answered
 * twice (the last response wins), a HumanInTheLoop response its default evaluator does not read
 * as a yes (the call is denied).
 */
import type { ResumePayload } from '../../../contract/resume-answers';
import type { PendingRequest, ResumeCheck, ResumeContext, ResumeIssue, ResumeRules, ResumeValidation } from '../../../loop/resume-model';
import { requestLabel, type GenerateCall } from '../../../loop/loop-model';
import type { Span } from '../../../spans/span';
import type { SpanIndex } from '../../../loop/span-index';
import { loopResumeContext } from '../../genai-loop/loop-resume-context';
import { pythonLiteral } from '../../python-values/python-literal';
import { pauseSourceOf, type InterruptSource } from './strands-interrupts';
import { strandsFlavor } from './strands-flavor';

/** The responses the HumanInTheLoop intervention's default evaluator reads as a yes (True, "y", "yes"; "t", "trust" when trust is on). */
function interventionApproves(response: unknown): boolean {
  if (response === true) return true;
  return typeof response === 'string' && ['y', 'yes', 't', 'trust'].includes(response.trim().toLowerCase());
}

function sourceOf(request: PendingRequest): InterruptSource | undefined {
  return pauseSourceOf({ pauseId: request.pauseId, metadata: request.interruptMetadata });
}

const WHO: Record<InterruptSource, string> = { hook: 'the BeforeToolCallEvent hook', intervention: 'the HumanInTheLoop intervention', tool: 'the tool (tool_context.interrupt)' };

/** The response blocks an answer becomes, in order. */
function responseBlocks(pairs: { request: PendingRequest; value: unknown }[]): unknown[] {
  return pairs.map(({ request, value }) => ({ interruptResponse: { interruptId: request.pauseId ?? request.ref ?? request.name, ...(value === undefined ? {} : { response: value }) } }));
}

/** Checks value answers (one response per paused call) and builds the interrupt responses. */
export function validateStrandsResume(check: ResumeCheck): ResumeValidation {
  const { context } = check;
  const errors: ResumeIssue[] = [];
  const warnings: ResumeIssue[] = [];
  const others = [...(check.respond ?? []), ...(check.restart ?? []), ...(check.approve ?? []), ...(check.deny ?? [])];
  if (others.length > 0) {
    errors.push({
      code: 'INVALID_ARGUMENT',
      message: 'Strands answers an interrupt with one response value (an interruptResponse block): give each paused call a value, not respond / restart / approve / deny.',
    });
  }
  const answered: { request: PendingRequest; value: unknown }[] = [];
  const times = new Map<PendingRequest, number>();
  for (const answer of check.values ?? []) {
    const label = requestLabel(answer);
    const matches = context.requests.filter((request) => request.name === answer.name && (answer.ref === undefined || request.ref === answer.ref));
    const request = matches.find((candidate) => candidate.state === 'interrupted');
    if (!request) {
      // Sent as the interruptId it names (a tool use id, or whatever was given), Strands finds no interrupt of that id.
      const sentId = answer.ref ?? answer.name;
      const what = matches.length > 0 ? `${label} did not pause (no interrupt of this run stands for it)` : `${label} is no call of the paused run`;
      errors.push({ code: 'NOT_FOUND', request: label, message: `${what}: Strands refuses the whole answer with KeyError: 'interrupt_id=<${sentId}> | no interrupt found'.` });
      continue;
    }
    if (request.pauseId === undefined) {
      errors.push({ code: 'FAILED_PRECONDITION', request: label, message: `The run's spans do not record the id of the interrupt that holds ${label}: Strands answers an interrupt by its id, so this answer cannot be built.` });
      continue;
    }
    if (answer.value === undefined) {
      errors.push({ code: 'INVALID_ARGUMENT', request: label, message: `The answer to ${label} has no response: Strands refuses an interruptResponse without one (KeyError: 'response').` });
    } else if (answer.value === null) {
      warnings.push({ code: 'WARNING', request: label, message: `A None response is no response: Strands accepts it and pauses again on ${label}.` });
    } else if (sourceOf(request) === 'intervention' && !interventionApproves(answer.value)) {
      warnings.push({
        code: 'WARNING',
        request: label,
        message: `HumanInTheLoop denies ${label} on this response: its default evaluator approves only True, "y" or "yes" (and "t" / "trust" when trust is on); the model gets CONFIRMATION_FAILED.`,
      });
    }
    times.set(request, (times.get(request) ?? 0) + 1);
    answered.push({ request, value: answer.value });
  }
  for (const [request, count] of times) {
    if (count > 1) warnings.push({ code: 'WARNING', request: requestLabel(request), message: `${requestLabel(request)} is answered ${count} times: Strands keeps the last response.` });
  }
  for (const request of context.requests.filter((candidate) => candidate.state === 'interrupted' && !times.has(candidate))) {
    warnings.push({ code: 'WARNING', request: requestLabel(request), message: `${requestLabel(request)} is left unanswered: Strands accepts the answer and pauses again on it.` });
  }
  const sources = [...new Set(answered.map(({ request }) => sourceOf(request)).filter((source): source is InterruptSource => source !== undefined && source !== 'intervention'))];
  const notes = sources.map((source) => `What a response means is up to ${WHO[source]}: Strands checks no shape.`);
  const payload: ResumePayload = { messages: context.messages, answer: responseBlocks(answered), ...(notes.length > 0 ? { notes } : {}) };
  return { errors, warnings, payload };
}

/** The interrupt responses as the app's own Python: the same agent called again with them. */
export function strandsAnswerSnippet(context: ResumeContext, payload: ResumePayload): string {
  const blocks = Array.isArray(payload.answer) ? payload.answer : [];
  return [
    '# The same Agent object that paused (it keeps the messages and the interrupt state), called again',
    '# with one interruptResponse per interrupt it paused on.',
    `responses = ${pythonLiteral(blocks, 'responses = ')}`,
    'result = agent(responses)',
    'if result.stop_reason == "interrupt":',
    '    print("paused again on", [interrupt.name for interrupt in result.interrupts])',
  ].join('\n');
}

const WAITING: Record<InterruptSource, string> = {
  hook: 'a BeforeToolCallEvent hook raised an interrupt before the tool ran (no tool span)',
  intervention: 'the HumanInTheLoop intervention asks before the tool runs (no tool span)',
  tool: 'the tool called tool_context.interrupt: it runs again from the start with the response',
};

/** A paused run's context: its calls as the graph read them (`call`, when given), each pause's kind of wait. */
function strandsContext(options: { root: Span; index: SpanIndex; call?: GenerateCall }): ResumeContext {
  return loopResumeContext({
    flavor: strandsFlavor,
    ...options,
    factsOf: (tool) => {
      const source = tool.interrupt ? pauseSourceOf(tool.interrupt) : undefined;
      return { waitingFor: source === 'tool' ? 'value' : 'approval', ...(source ? { waitingEvidence: WAITING[source] } : {}) };
    },
  });
}

export const strandsResumeRules: ResumeRules = {
  answerKinds: [{ kind: 'value', label: 'Interrupt response (the value the hook, intervention or tool gets back)', fields: ['value'] }],
  defaultKind: () => 'value',
  snippet: strandsAnswerSnippet,
  snippetLanguage: 'Python',
  elsewhere: { why: 'Loopscope does not run Strands agents: call the same agent again with these interrupt responses, in your app.' },
  valueExample: () => 'y',
  contextOf: (root, index) => strandsContext({ root, index }),
  contextOfCall: strandsContext,
  validate: validateStrandsResume,
};
