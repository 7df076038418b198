/**
 * The AI SDK app door (lib/contract/attach-ai-sdk.ts): `POST /attach/ai-sdk/{hello,start,end,answer,answer-ack}`,
 * asked by `loopscope/ai-sdk` inside a developer's own app. The request guard lets only requests
 * WITHOUT an Origin header reach `/attach/` (no web page can); here `hello` and `start` want the
 * app's credential — the app secret `loopscope start -- <cmd>` gave the app it started, or
 * Loopscope's API token, which the developer gave an app started otherwise — and the others the
 * run's own step token (docs/security-model.md). The Next route (app/attach/ai-sdk/[op]) is a
 * shell over this.
 */
import {
  AiSdkAnswerAckRequestSchema,
  AiSdkAnswerWaitRequestSchema,
  AiSdkEndRequestSchema,
  AiSdkHelloRequestSchema,
  AiSdkStartRequestSchema,
  AI_SDK_APP_ENVIRONMENT,
} from '../../contract/attach-ai-sdk';
import { LoopscopeError } from '../../errors';
import { parseRequestValue } from '../http/http';
import { bearerToken, tokensMatch } from '../http/request-guard';
import type { AiSdkApps } from './ai-sdk-apps';

/** What may open a run: the app secret of the app Loopscope started, or the API token (empty strings never match). */
export interface AppDoorCredentials {
  appSecret: string;
  apiToken: string;
}

/** @throws LoopscopeError UNAUTHENTICATED naming where the credential comes from. */
function checkAppCredential(options: { credentials: AppDoorCredentials; token: string | null }): void {
  const { credentials, token } = options;
  if (token !== null && ((credentials.appSecret !== '' && tokensMatch(token, credentials.appSecret)) || (credentials.apiToken !== '' && tokensMatch(token, credentials.apiToken)))) return;
  throw new LoopscopeError(
    'UNAUTHENTICATED',
    token === null
      ? `The AI SDK app door needs the app's credential: ${AI_SDK_APP_ENVIRONMENT.secret} (set for the app \`loopscope start -- <cmd>\` starts) or ${AI_SDK_APP_ENVIRONMENT.token} (Loopscope's token, from its start banner).`
      : `The app's credential is wrong: it is neither this Loopscope's app secret (${AI_SDK_APP_ENVIRONMENT.secret}, new at every start) nor its token.`,
  );
}

/**
 * Answers one request of the door.
 * @throws LoopscopeError NOT_FOUND (unknown operation or run), UNAUTHENTICATED (wrong credential or token), INVALID_ARGUMENT (bad body), FAILED_PRECONDITION (a run that waits for nothing).
 */
export async function answerAiSdkDoor(options: { apps: AiSdkApps; credentials: AppDoorCredentials; op: string; authorization: string | null; body: unknown }): Promise<unknown> {
  const { apps, op, body } = options;
  const token = bearerToken(options.authorization);
  switch (op) {
    case 'hello': {
      checkAppCredential({ credentials: options.credentials, token });
      return apps.hello(parseRequestValue({ value: body, schema: AiSdkHelloRequestSchema }).app);
    }
    case 'start': {
      checkAppCredential({ credentials: options.credentials, token });
      return apps.start(parseRequestValue({ value: body, schema: AiSdkStartRequestSchema }));
    }
    case 'end': {
      const request = parseRequestValue({ value: body, schema: AiSdkEndRequestSchema });
      apps.end(apps.authorize(request.runId, token), request);
      return { ok: true };
    }
    case 'answer': {
      const request = parseRequestValue({ value: body, schema: AiSdkAnswerWaitRequestSchema });
      return apps.waitForAnswer(apps.authorize(request.runId, token));
    }
    case 'answer-ack': {
      const request = parseRequestValue({ value: body, schema: AiSdkAnswerAckRequestSchema });
      apps.ackAnswer(apps.authorize(request.runId, token), request.problems);
      return { ok: true };
    }
    default:
      throw new LoopscopeError('NOT_FOUND', `No AI SDK app door operation "${op}": there are hello, start, end, answer and answer-ack.`);
  }
}
