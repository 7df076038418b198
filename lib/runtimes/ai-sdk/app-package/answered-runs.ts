/**
 * The answers `answerInLoopscope` handed the app, until the call that carries one starts: a call
 * whose messages hold one of them (a `tool-approval-response` with its approval id, or a
 * `tool-result` for its tool call id) answers that run, goes on as it, and links its root span to
 * the paused call's.
 */
import type { ModelMessage } from 'ai';
import type { SpanRef } from '../../../runner/answer-link';

interface GivenAnswer {
  runId: string;
  /** The paused call's root span, when the app started it. */
  link?: SpanRef;
  approvalIds: Set<string>;
  toolCallIds: Set<string>;
}

/** Answers given and not yet used: the newest few (an app that never makes its next call leaves one behind). */
const MAX_GIVEN = 100;

export class AnsweredRuns {
  private readonly given: GivenAnswer[] = [];

  /** Notes an answer handed to the app: its tool message answers these calls of that run. */
  note(answer: GivenAnswer): void {
    this.given.push(answer);
    if (this.given.length > MAX_GIVEN) this.given.shift();
  }

  /** The answer a call's messages carry, if any — taken: the next call with it is a new one. */
  take(messages: readonly ModelMessage[]): Pick<GivenAnswer, 'runId' | 'link'> | undefined {
    const approvalIds = new Set<string>();
    const toolCallIds = new Set<string>();
    for (const message of messages) {
      if (message.role !== 'tool' || typeof message.content === 'string') continue;
      for (const part of message.content) {
        if (part.type === 'tool-approval-response') approvalIds.add(part.approvalId);
        else if (part.type === 'tool-result') toolCallIds.add(part.toolCallId);
      }
    }
    // The newest answer first: an app that answers a run twice goes on from the last answer.
    for (let index = this.given.length - 1; index >= 0; index -= 1) {
      const answer = this.given[index];
      if (![...answer.approvalIds].some((id) => approvalIds.has(id)) && ![...answer.toolCallIds].some((id) => toolCallIds.has(id))) continue;
      this.given.splice(index, 1);
      return { runId: answer.runId, ...(answer.link ? { link: answer.link } : {}) };
    }
    return undefined;
  }
}
