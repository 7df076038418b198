import { z } from 'zod';
import { RunActionRequestSchema } from '../../contract/runtimes';
import { StartRunRequestSchema } from '../../contract/run-session';
import type { AppContext } from '../app-context-ports';
import { runInRuntime } from '../attach/attach-service';
import { startAttachedStepRun } from '../attach/attached-generate';
import { parseRequestValue } from '../http/http';
import { startRun } from './run-service';

/** What POST /api/runs answers: its status and JSON payload. */
export interface PostRunsAnswer {
  status: 200 | 202;
  payload: unknown;
}

/**
 * POST /api/runs once its guard passed and its body is parsed: a scenario run
 * (`{scenario, mode?, provider?}`: answers at once, 202 `{run}`, progress on the event stream),
 * or an action of an attached app (`{runtimeId, action, input}`: answers when it ended, 200
 * `{result}`) — or, with `mode`, a stepped generate or flow in it (answers at once, 202 `{run}`,
 * like a scenario's run). One function for both doors: the Next route (app/api/runs) and the HTTP
 * server's fast path (runs-fast-path.ts).
 * @throws LoopscopeError INVALID_ARGUMENT for a body of neither shape (and what the services throw).
 */
export async function postRuns({ context, value }: { context: AppContext; value: unknown }): Promise<PostRunsAnswer> {
  if (typeof value === 'object' && value !== null && 'runtimeId' in value) {
    const body = parseRequestValue({ value, schema: RunActionRequestSchema });
    if (body.mode) return { status: 202, payload: { run: await startAttachedStepRun({ context, runtimeId: body.runtimeId, action: body.action, input: body.input, mode: body.mode }) } };
    return { status: 200, payload: { result: await runInRuntime({ attachment: context.attachment, request: body }) } };
  }
  const { scenario, mode, provider } = parseRequestValue({ value, schema: StartRunRequestSchema });
  return { status: 202, payload: { run: await startRun({ context, scenario, mode, provider }) } };
}

/** Any JSON value: the body's shape is decided by `postRuns`. */
export const PostRunsBodySchema = z.unknown();
