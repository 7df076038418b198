import type { IncomingMessage } from 'node:http';
import { LoopscopeError } from '../../errors';
import { parseJsonLimited } from '../../spans/parse-json-limited';
import type { AppContext } from '../app-context-ports';
import { API_MAX_BODY_BYTES } from './body-limits';
import { postRuns } from '../services/post-runs';
import { readNodeBody } from './read-node-body';
import { errorAnswer, guardDirect, headerOf, jsonAnswer, postPathname } from './fast-path-request';
import { refusalBody, type GuardConfig } from './request-guard';
import type { DirectAnswer } from './start-http-servers';

/**
 * `POST /api/runs` answered by Loopscope's HTTP server itself (scripts/start.js), in front of
 * Next, as the OTLP receiver is (otlp-fast-path.ts): Next's proxy, routing and Web Request and
 * Response adapters cost ≈5 ms per request here, on the path of every run a page or a script
 * starts (bench/capture-overhead.bench.ts: a 21-turn scripted run takes ≈20–40 ms). The request meets
 * the same guard as in proxy.ts (Host, Origin, token or the page's session cookie with Fetch
 * Metadata; `guardRequest`), the same body limit and media type as `readJsonBody`, and the same
 * `postRuns` as the Next route (app/api/runs). Answers carry the security headers without a
 * script nonce (the HTTP server adds them; JSON runs no script).
 *
 * @param options.context the app context if it exists (made by Next's instrumentation at
 *   start); until then requests go on to Next, which makes it.
 * @returns a function that answers a `POST /api/runs`, or returns undefined for any other
 *   request (Next answers it).
 */
export function createRunsFastPath(options: { context: () => AppContext | undefined; guard: GuardConfig }): (request: IncomingMessage) => Promise<DirectAnswer> | undefined {
  return (request) => {
    if (postPathname(request) !== '/api/runs') return undefined;
    const context = options.context();
    if (!context) return undefined;
    const verdict = guardDirect({ request, pathname: '/api/runs', guard: options.guard, session: true });
    if (!verdict.ok) {
      // Refused before its body was read: close the connection after the answer, or the unread
      // body would be taken for the next request on it.
      const refused = jsonAnswer(verdict.status, refusalBody(verdict));
      refused.headers.connection = 'close';
      return Promise.resolve(refused);
    }
    return (async () => {
      try {
        const mediaType = (headerOf(request, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
        if (mediaType !== 'application/json') throw new LoopscopeError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
        const bytes = await readNodeBody(request, API_MAX_BODY_BYTES);
        const value = parseJsonLimited(new TextDecoder().decode(bytes), { what: 'The body' });
        const { status, payload } = await postRuns({ context, value });
        return jsonAnswer(status, payload);
      } catch (error) {
        const answer = errorAnswer(error);
        // The rest of a refused body is never read: close the connection after the answer.
        if (answer.status === 413 || answer.status === 415) answer.headers.connection = 'close';
        return answer;
      }
    })();
  };
}
