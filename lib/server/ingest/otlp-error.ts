/** google.rpc.Status codes the OTLP spec uses in error bodies, by HTTP status. */
const RPC_CODE_BY_STATUS: Record<number, number> = { 400: 3, 401: 16, 403: 7, 413: 8, 415: 3, 500: 13, 503: 14 };

/**
 * The body of an OTLP/HTTP error answer (`{code, message}`, a google.rpc.Status), the same
 * from the receiver route and from the HTTP server's early 413.
 */
export function otlpErrorBody(status: number, message: string): { code: number; message: string } {
  return { code: RPC_CODE_BY_STATUS[status] ?? 13, message };
}
