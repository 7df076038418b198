/**
 * Loopscope's reflection door (issue 36): the WebSocket on Loopscope's own port that the app
 * `loopscope start -- <cmd>` runs dials in on, instead of listening on a reflection port of its
 * own (GENKIT_REFLECTION_V2_SERVER, app-environment.ts; the protocol: dialed-runtime.ts).
 *
 * Whoever holds this door can pose as the app — list fake actions, receive the runs' inputs and
 * the step tokens they carry — so it opens only to a request that
 * - names a loopback Host with our port (request-guard.ts): a page that rebinds a name to
 *   127.0.0.1 sends its own name;
 * - has no Origin: a browser always sends one on a WebSocket handshake and cannot remove it, so no
 *   page — Loopscope's own included — can open it (genkit's WebSocket clients send none: measured
 *   for JS `ws`, Go `coder/websocket`, Python `websockets`);
 * - carries the secret of this server start in its path (compared in constant time), which only
 *   the app's environment holds.
 * A refusal is an HTTP answer (403 naming the reason) before any upgrade.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData } from 'ws';
import { guardDirect } from '../http/fast-path-request';
import { tokensMatch, type GuardConfig } from '../http/request-guard';
import type { UpgradeHandler } from '../http/start-http-servers';
import { REFLECTION_DOOR_PREFIX } from './app-environment';
import type { Attachment } from './attach-service';

/**
 * The biggest message an app may send: an action list or a flow's output. genkit JS accepts 30 MB
 * request bodies on its own reflection server; ws's default is 100 MiB.
 */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

function refuse(options: { socket: Duplex; status: 403 | 503; message: string }): true {
  const body = JSON.stringify({ error: { code: options.status === 403 ? 'PERMISSION_DENIED' : 'UNAVAILABLE', message: options.message } });
  options.socket.end(`HTTP/1.1 ${options.status} ${STATUS_CODES[options.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  return true;
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/**
 * The door, for the HTTP server's `upgrade` event (start-http-servers.ts).
 * @param options.attachment the attachment whose registry takes the runtimes that dial in (undefined while the server starts)
 * @param options.guard the server's port and token, as for every request (request-guard.ts)
 */
export function createReflectionDoor(options: { attachment: () => Attachment | undefined; guard: GuardConfig }): UpgradeHandler {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false, clientTracking: false });
  return ({ request, socket, head }) => {
    const url = request.url ?? '/';
    const pathname = url.split('?')[0];
    if (!pathname.startsWith(REFLECTION_DOOR_PREFIX)) return false;
    const verdict = guardDirect({ request, pathname: REFLECTION_DOOR_PREFIX, guard: options.guard, session: false });
    if (!verdict.ok) return refuse({ socket, status: 403, message: verdict.message });
    if (request.headers.origin !== undefined) return refuse({ socket, status: 403, message: 'The reflection door is for the app Loopscope started, not for a web page.' });
    const attachment = options.attachment();
    if (!attachment) return refuse({ socket, status: 503, message: 'Loopscope is still starting.' });
    if (!tokensMatch(pathname.slice(REFLECTION_DOOR_PREFIX.length), attachment.reflectionSecret)) {
      return refuse({ socket, status: 403, message: "The reflection door's secret is wrong: only the app Loopscope started (GENKIT_REFLECTION_V2_SERVER) may connect." });
    }
    server.handleUpgrade(request, socket, head, (webSocket) => {
      const runtime = attachment.registry.dialedIn(webSocket);
      webSocket.on('message', (data, isBinary) => {
        if (!isBinary) runtime.receive(textOf(data));
      });
      webSocket.on('close', () => runtime.disconnected());
      // A broken connection closes next (ws emits 'close' after 'error'), which is what counts.
      webSocket.on('error', () => undefined);
    });
    return true;
  };
}
