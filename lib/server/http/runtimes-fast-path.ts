import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../app-context-ports';
import { getRuntimes } from '../services/get-runtimes';
import { errorAnswer, getPathname, guardDirect, jsonAnswer } from './fast-path-request';
import { refusalBody, type GuardConfig } from './request-guard';
import type { DirectAnswer } from './start-http-servers';

/**
 * `GET /api/runtimes` answered by Loopscope's HTTP server itself (scripts/start.js), in front of
 * Next, as `POST /api/runs` is (runs-fast-path.ts): it is what tells a script, a test or the Apps
 * page that the app `loopscope start -- <cmd>` runs has attached, and through Next its first
 * answer also loaded the route's code (≈ 50–80 ms of the server's thread here) while the app was
 * still booting beside it (bench/package.bench.ts). The request meets the same guard as in
 * proxy.ts (Host, Origin, the token or the page's session cookie with Fetch Metadata;
 * `guardRequest`) and gets the same answer as the Next route (app/api/runtimes: `getRuntimes`).
 * Answers carry the security headers without a script nonce (the HTTP server adds them; JSON
 * runs no script).
 *
 * @param options.context the app context if it exists (made by scripts/start.js, or by Next's
 *   instrumentation); until then requests go on to Next, which makes it.
 * @returns a function that answers a `GET /api/runtimes`, or returns undefined for any other
 *   request (Next answers it).
 */
export function createRuntimesFastPath(options: { context: () => AppContext | undefined; guard: GuardConfig }): (request: IncomingMessage) => Promise<DirectAnswer> | undefined {
  return (request) => {
    if (getPathname(request) !== '/api/runtimes') return undefined;
    const context = options.context();
    if (!context) return undefined;
    // A GET's body, if any, is never read: it must not hold the connection.
    request.resume();
    const verdict = guardDirect({ request, pathname: '/api/runtimes', guard: options.guard, session: true });
    if (!verdict.ok) return Promise.resolve(jsonAnswer(verdict.status, refusalBody(verdict)));
    return getRuntimes(context).then(
      (body) => jsonAnswer(200, body),
      (error: unknown) => errorAnswer(error),
    );
  };
}
