import type { IncomingMessage } from 'node:http';
import { LoopscopeError } from '../../errors';

/**
 * Reads a request body whole, refusing it past `maxBytes` (a body that declares no length can
 * still be too long). A refused body's answer closes the connection: the rest is never read.
 */
export function readNodeBody(request: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    request.on('data', (chunk: Buffer) => {
      if (settled) return;
      total += chunk.byteLength;
      if (total > maxBytes) fail(new LoopscopeError('PAYLOAD_TOO_LARGE', `The body passed the limit of ${maxBytes} bytes.`));
      else chunks.push(chunk);
    });
    request.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total));
    });
    request.on('error', fail);
    // A client that goes away mid-body: nothing to store, and nobody to answer.
    // Its error is made only then: every request closes, and an error's stack costs ≈50 µs (bench/capture-overhead.bench.ts's server profile).
    request.on('close', () => {
      if (!settled) fail(new LoopscopeError('INVALID_ARGUMENT', 'The client closed the connection before the body ended.'));
    });
  });
}
