/**
 * Mastra's rules for answering a paused run, as Mastra applies them (docs/guides/mastra.md,
 * "Answering a pause"; each rule checked against Mastra itself by the answer probes in
 * lib/runtimes/mastra/__fixtures__/answer-probes.json). A run pauses on one call at a time and
 * is answered by one call of the agent with the run's id: `approveToolCall({ runId, toolCallId })`,
 * `declineToolCall({ runId, toolCallId, reason })`, or `resumeStream(data, { runId, toolCallId })`.
 *
 * Refused by Mastra (it throws): an answer to any call but the one the run is suspended on
 * (`Agent "…" resumeStream() cannot resume tool call "…" because it is not suspended.` — an
 * unknown id, a call that ran, the next call before this one). Accepted: anything else — but
 * approving or declining a tool that suspended itself resumes it with no data (its input
 * validation fails, it does not run), and resume data other than `{approved: boolean}` sent to
 * an approval leaves the call paused.
 */
import type { ResumePayload } from '../../../contract/resume-answers';
import { codeLiteral } from '../../../spans/code-literal';
import { isObject } from '../../../spans/json-value';
import type { PendingRequest, ResumeCheck, ResumeContext, ResumeIssue, ResumeRules, ResumeValidation } from '../../../loop/resume-model';
import { requestLabel, type GenerateCall } from '../../../loop/loop-model';
import type { Span } from '../../../spans/span';
import type { SpanIndex } from '../../../loop/span-index';
import { loopResumeContext } from '../../genai-loop/loop-resume-context';
import { GEN_AI, stringAttribute } from '../../otel-genai/read/genai-attributes';
import { mastraFlavor } from './mastra-flavor';
import { MASTRA } from './mastra-spans';

/** One answer as Mastra's API takes it. */
type MastraAnswer = { method: 'approveToolCall'; toolCallId: string } | { method: 'declineToolCall'; toolCallId: string; reason?: string } | { method: 'resumeStream'; toolCallId: string; resumeData: unknown };

const suspendedItself = (request: PendingRequest) => request.pausedAs?.startsWith('suspended') === true;

/** Whether resume data answers an approval: `{approved: boolean}` (the approval's resumeSchema). */
const answersApproval = (data: unknown) => isObject(data) && typeof data.approved === 'boolean';

/** The agent, as the context names it (its id, which Mastra's agents in the recorded apps share with their name). */
const agentOf = (context: ResumeContext) => context.callName ?? 'agent';

/** Checks the answers (one per run: the paused call's) and builds Mastra's call. */
export function validateMastraResume(check: ResumeCheck): ResumeValidation {
  const { context } = check;
  const errors: ResumeIssue[] = [];
  const warnings: ResumeIssue[] = [];
  const notes: string[] = [];
  if ((check.respond ?? []).length + (check.restart ?? []).length > 0) {
    errors.push({ code: 'INVALID_ARGUMENT', message: 'Mastra has no respond or restart: approve (approveToolCall), decline (declineToolCall) or resume with data (resumeStream).' });
  }
  const given: { name: string; ref?: string; answer: (toolCallId: string) => MastraAnswer }[] = [
    ...(check.approve ?? []).map((answer) => ({ ...answer, answer: (toolCallId: string): MastraAnswer => ({ method: 'approveToolCall', toolCallId }) })),
    ...(check.deny ?? []).map((answer) => ({ ...answer, answer: (toolCallId: string): MastraAnswer => ({ method: 'declineToolCall', toolCallId, ...(answer.reason !== undefined ? { reason: answer.reason } : {}) }) })),
    ...(check.values ?? []).map((answer) => ({ ...answer, answer: (toolCallId: string): MastraAnswer => ({ method: 'resumeStream', toolCallId, resumeData: answer.value }) })),
  ];
  const agent = agentOf(context);
  const answers: MastraAnswer[] = [];
  for (const entry of given) {
    const label = requestLabel(entry);
    const request = context.requests.find((candidate) => candidate.state === 'interrupted' && candidate.name === entry.name && (entry.ref === undefined || candidate.ref === entry.ref));
    const toolCallId = request?.ref ?? entry.ref ?? entry.name;
    if (!request) {
      errors.push({ code: 'NOT_FOUND', request: label, message: `${label} is not the call this run is suspended on: Mastra refuses it with Error: Agent "${agent}" resumeStream() cannot resume tool call "${toolCallId}" because it is not suspended.` });
      continue;
    }
    const answer = entry.answer(toolCallId);
    if (answers.length > 0) {
      errors.push({
        code: 'FAILED_PRECONDITION',
        request: label,
        message: `Mastra takes one answer per run: once ${requestLabel({ name: request.name, ref: answers[0].toolCallId })} is answered, a second answer is refused — by Error: Agent "${agent}" resumeStream() could not find a suspended run for runId "${context.conversationId ?? ''}". when the run completed, or by … cannot resume tool call "${toolCallId}" because it is not suspended. when it paused on another call. Send it once this run pauses again.`,
      });
      continue;
    }
    if (suspendedItself(request) && answer.method !== 'resumeStream') {
      warnings.push({
        code: 'WARNING',
        request: label,
        message: `${label} suspended itself (suspend()): ${answer.method} resumes it with no data, so its input validation fails and it does not run; the model gets "Tool input validation failed for ${request.name}". Resume it with data instead.`,
      });
    } else if (!suspendedItself(request) && answer.method === 'resumeStream' && !answersApproval(answer.resumeData)) {
      warnings.push({ code: 'WARNING', request: label, message: `${label} waits for an approval: resume data other than {"approved": true | false} leaves it suspended (Mastra accepts the run and pauses again on it).` });
    } else if (suspendedItself(request) && answer.method === 'resumeStream') {
      notes.push(`The trace does not record ${request.name}'s resumeSchema: data that does not match it is accepted, but the tool does not run and the model gets "Tool input validation failed for ${request.name}".`);
    }
    answers.push(answer);
  }
  const paused = context.requests.filter((request) => request.state === 'interrupted');
  if (given.length === 0 && paused.length > 0) {
    errors.push({ code: 'INVALID_ARGUMENT', message: `Answer ${requestLabel(paused[0])}: Mastra continues a paused run with one answer to the call it is suspended on.` });
  }
  const payload: ResumePayload = { messages: context.messages, answer: answers[0] ?? null, ...(notes.length > 0 ? { notes } : {}) };
  return { errors, warnings, payload };
}

/** The answer as the app's own TypeScript: the agent's call with the paused run's id. */
export function mastraAnswerSnippet(context: ResumeContext, payload: ResumePayload): string {
  const answer = isObject(payload.answer) ? (payload.answer as MastraAnswer) : undefined;
  const agent = agentOf(context);
  const lines = [
    '// The Mastra instance that ran the paused run (its storage keeps the run), and its agent.',
    `const agent = mastra.getAgentById(${codeLiteral(agent)});`,
    `const runId = ${codeLiteral(context.conversationId ?? null)};`,
  ];
  if (!answer) return [...lines, '// Answer the paused call: agent.approveToolCall, agent.declineToolCall or agent.resumeStream.'].join('\n');
  const call =
    answer.method === 'resumeStream'
      ? `await agent.resumeStream(${codeLiteral(answer.resumeData ?? null, 'const stream = await agent.resumeStream(')}, { runId, toolCallId: ${codeLiteral(answer.toolCallId)} })`
      : `await agent.${answer.method}({ runId, toolCallId: ${codeLiteral(answer.toolCallId)}${answer.method === 'declineToolCall' && answer.reason !== undefined ? `, reason: ${codeLiteral(answer.reason)}` : ''} })`;
  return [...lines, `const stream = ${call};`, 'for await (const chunk of stream.fullStream) {', '  // the answering run: the tool runs (or is declined), then the next model step', '}'].join('\n');
}

/** A paused run's context: its calls as the graph read them (`call`, when given), the run id the answer goes to, the agent. */
function mastraContext(options: { root: Span; index: SpanIndex; call?: GenerateCall }): ResumeContext {
  const { root, index, call } = options;
  const runId = root.attributes[MASTRA.runId];
  const context = loopResumeContext({
    flavor: mastraFlavor,
    root,
    index,
    call,
    ...(typeof runId === 'string' ? { conversationId: runId } : {}),
    factsOf: (tool) => ({
      waitingFor: tool.interrupt?.pausedAs?.startsWith('suspended') ? 'value' : 'approval',
      waitingEvidence: tool.interrupt?.pausedAs?.startsWith('suspended') ? 'the tool called suspend(): it runs again with the resume data' : 'the run suspended with a tool-call-approval for it (the tool did not run)',
      ...(tool.interrupt && 'metadata' in tool.interrupt && isObject(tool.interrupt.metadata) && tool.interrupt.metadata.resumeSchema !== undefined ? { answerSchema: tool.interrupt.metadata.resumeSchema } : {}),
    }),
  });
  // The agent's id (getAgentById), else its name.
  const agent = stringAttribute(root.attributes[MASTRA.agentId]) ?? stringAttribute(root.attributes[GEN_AI.agentName]);
  return { ...context, ...(agent ? { callName: agent } : {}) };
}

export const mastraResumeRules: ResumeRules = {
  answerKinds: [
    { kind: 'approve', label: 'Approve (agent.approveToolCall — the tool runs)', fields: [] },
    { kind: 'deny', label: 'Decline (agent.declineToolCall — the tool does not run; the model is told)', fields: ['reason'] },
    { kind: 'value', label: 'Resume with data (agent.resumeStream — a suspended tool runs again with it)', fields: ['value'] },
  ],
  defaultKind: (request) => (suspendedItself(request) ? 'value' : 'approve'),
  snippet: mastraAnswerSnippet,
  elsewhere: { why: 'Loopscope does not run Mastra agents: run this call in your app, on the Mastra instance that paused (its storage keeps the run).' },
  valueExample: ({ request, exampleOf }) => (suspendedItself(request) ? {} : (exampleOf(request.answerSchema) ?? { approved: true })),
  contextOf: (root, index) => mastraContext({ root, index }),
  contextOfCall: mastraContext,
  validate: validateMastraResume,
};
