/**
 * The part of `ws` (8.x, a dependency for Loopscope's reflection door: lib/server/attach/reflection-door.ts)
 * that Loopscope uses. The package ships no types, and @types/ws is not installed; these
 * declarations follow ws 8's documented API (the ws package's own API documentation) for exactly these members.
 */
declare module 'ws' {
  import type { EventEmitter } from 'node:events';
  import type { ClientRequest, IncomingMessage } from 'node:http';
  import type { Duplex } from 'node:stream';

  export type RawData = Buffer | ArrayBuffer | Buffer[];

  export class WebSocket extends EventEmitter {
    static readonly CONNECTING: 0;
    static readonly OPEN: 1;
    static readonly CLOSING: 2;
    static readonly CLOSED: 3;
    constructor(address: string, options?: { headers?: Record<string, string>; origin?: string; handshakeTimeout?: number });
    readonly readyState: 0 | 1 | 2 | 3;
    send(data: string, callback?: (error?: Error) => void): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
    on(event: 'open', listener: () => void): this;
    on(event: 'message', listener: (data: RawData, isBinary: boolean) => void): this;
    on(event: 'close', listener: (code: number, reason: Buffer) => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    on(event: 'unexpected-response', listener: (request: ClientRequest, response: IncomingMessage) => void): this;
    once(event: 'open', listener: () => void): this;
    once(event: 'message', listener: (data: RawData, isBinary: boolean) => void): this;
    once(event: 'close', listener: (code: number, reason: Buffer) => void): this;
    once(event: 'error', listener: (error: Error) => void): this;
    once(event: 'unexpected-response', listener: (request: ClientRequest, response: IncomingMessage) => void): this;
  }

  export class WebSocketServer extends EventEmitter {
    constructor(options: { noServer: true; maxPayload?: number; perMessageDeflate?: boolean; clientTracking?: boolean });
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, callback: (socket: WebSocket, request: IncomingMessage) => void): void;
    close(callback?: (error?: Error) => void): void;
  }

  export default WebSocket;
}
