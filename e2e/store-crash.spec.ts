import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { decodeOtlpJson } from '../lib/spans/otlp-json';
import { AUTH, startSecondServer, stopSecondServers, type SecondServer } from './helpers';

/**
 * The store through crashes (issue 15, item 1): a production server on its own data folder
 * takes concurrent OTLP exports from 8 clients and is killed with SIGKILL, again and again, in
 * the middle of it. After every restart each trace is listed exactly once, with the span count
 * its stored spans have; every export answered 200 is there whole; an export is there whole or
 * not at all; no temp file is left. Clients resend what was not acknowledged, as exporters do.
 * The store that results is then read through the indexed page query (`GET /api/traces?…`).
 */
const TRACES = 40;
const PARTS = 4;
const SPANS_PER_PART = 14;
const CRASHES = 10;
const CLIENTS = 8;

const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');
const traceIdOf = (trace: number) => `c0${hex(trace + 1, 30)}`;

/** One export: part `part` of trace `trace` (a root with its children, or more children of it). */
function exportBody(trace: number, part: number): string {
  const traceId = traceIdOf(trace);
  const root = hex(0x1000 + trace, 16);
  const start = BigInt(Date.UTC(2026, 11, 1) + trace * 1000) * 1_000_000n;
  const spans = Array.from({ length: SPANS_PER_PART }, (_, index) => {
    const isRoot = part === 0 && index === 0;
    const spanId = isRoot ? root : hex(0x100000 + part * 1000 + index, 16);
    return {
      traceId,
      spanId,
      ...(isRoot ? {} : { parentSpanId: root }),
      name: isRoot ? 'crash-flow' : `step-${part}-${index}`,
      kind: 1,
      startTimeUnixNano: String(start + BigInt(part * 100 + index) * 1000n),
      endTimeUnixNano: String(start + BigInt(part * 100 + index) * 1000n + 500n),
      attributes: [{ key: 'payload', value: { stringValue: 'x'.repeat(2_000) } }],
      status: { code: 1 },
    };
  });
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'crash-test' } }] }, scopeSpans: [{ scope: { name: 'crash' }, spans }] }] });
}

interface Listed {
  traceId: string;
  spanCount: number;
}

/** Every listed trace checked against its stored spans and what was acknowledged. */
async function checkStore(request: APIRequestContext, server: SecondServer, acked: Map<number, Set<number>>): Promise<number> {
  const listed = ((await (await request.get(`${server.baseUrl}/api/traces`, { headers: AUTH })).json()) as { traces: Listed[] }).traces;
  const ids = listed.map((row) => row.traceId);
  expect(new Set(ids).size, 'each trace listed once').toBe(ids.length);
  for (const [trace, parts] of acked) if (parts.size > 0) expect(ids, `trace ${trace} was acknowledged`).toContain(traceIdOf(trace));
  for (const row of listed) {
    const spans = decodeOtlpJson(await (await request.get(`${server.baseUrl}/api/traces/${row.traceId}`, { headers: AUTH })).json());
    expect(row.spanCount, `${row.traceId}: the listed count is the stored one`).toBe(spans.length);
    // Whole exports only: each part is there with all its spans or not at all.
    expect(spans.length % SPANS_PER_PART).toBe(0);
    const trace = Number.parseInt(row.traceId.slice(2), 16) - 1;
    const partsStored = new Set(spans.map((span) => (span.spanId.startsWith('00000000000010') ? 0 : Math.floor((Number.parseInt(span.spanId, 16) - 0x100000) / 1000))));
    for (const part of acked.get(trace) ?? []) expect(partsStored.has(part), `${row.traceId} part ${part} was acknowledged`).toBe(true);
  }
  return listed.length;
}

test.afterEach(async () => {
  await stopSecondServers();
});

test(`store: ${CRASHES} kill -9 during concurrent ingest leave every trace listed once with its span count, every acknowledged export kept, no leftovers`, async ({ request }) => {
  test.setTimeout(300_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'loopscope-crash-'));
  const env = { LOOPSCOPE_DATA_DIR: path.join(dataDir, 'data'), LOOPSCOPE_TRACES_DIR: path.join(dataDir, 'saved') };
  const pending: Array<[number, number]> = [];
  for (let part = 0; part < PARTS; part++) for (let trace = 0; trace < TRACES; trace++) pending.push([trace, part]);
  const acked = new Map<number, Set<number>>();
  let kills = 0;
  let ackedBeforeKills = 0;
  try {
    for (let round = 0; round <= CRASHES && pending.length > 0; round++) {
      const server = await startSecondServer({ env });
      await checkStore(request, server, acked);
      const crashing = round < CRASHES;
      let stop = false;
      // A crashing round may send only its share, so every one of the CRASHES rounds has exports
      // in flight when it is killed, however fast the machine (all 160 once went through in nine).
      let sendsLeft = crashing ? Math.floor((TRACES * PARTS) / (CRASHES + 2)) : Number.POSITIVE_INFINITY;
      const client = async () => {
        while (!stop && pending.length > 0 && sendsLeft > 0) {
          sendsLeft -= 1;
          const next = pending.splice(Math.floor(Math.random() * pending.length), 1)[0];
          const ok = await fetch(`${server.baseUrl}/v1/traces`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: exportBody(...next) })
            .then((response) => response.status === 200)
            .catch(() => false);
          if (ok) acked.set(next[0], (acked.get(next[0]) ?? new Set()).add(next[1]));
          // Not acknowledged (refused, reset by the kill): sent again later.
          else pending.push(next);
        }
      };
      const clients = Array.from({ length: CLIENTS }, client);
      if (crashing) {
        // Kill it mid-ingest, after a random number (3–8) of this round's exports went through.
        const ackedNow = () => [...acked.values()].reduce((sum, parts) => sum + parts.size, 0);
        const killAt = ackedNow() + 3 + Math.floor(Math.random() * 6);
        const deadline = Date.now() + 10_000;
        while (ackedNow() < killAt && sendsLeft > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
        process.kill(-server.pid, 'SIGKILL');
        kills += 1;
        await server.exited;
        ackedBeforeKills = ackedNow();
        stop = true;
        await Promise.all(clients);
      } else {
        await Promise.all(clients);
        expect(pending).toEqual([]);
        expect(await checkStore(request, server, acked)).toBe(TRACES);
        const listed = ((await (await request.get(`${server.baseUrl}/api/traces`, { headers: AUTH })).json()) as { traces: Listed[] }).traces;
        expect(listed.map((row) => row.spanCount)).toEqual(Array(TRACES).fill(PARTS * SPANS_PER_PART));
        // The indexed page query over the same store: pages of 15 in the list's order, a search, a refused parameter.
        const pages: string[] = [];
        for (let after = ''; ; ) {
          const page = (await (await request.get(`${server.baseUrl}/api/traces?limit=15${after ? `&after=${after}` : ''}`, { headers: AUTH })).json()) as { traces: Listed[]; next?: string };
          pages.push(...page.traces.map((row) => row.traceId));
          if (!page.next) break;
          after = encodeURIComponent(page.next);
        }
        expect(pages).toEqual(listed.map((row) => row.traceId));
        const found = (await (await request.get(`${server.baseUrl}/api/traces?q=${traceIdOf(7).slice(-6)}+CRASH-FLOW`, { headers: AUTH })).json()) as { traces: Listed[] };
        expect(found.traces.map((row) => row.traceId)).toEqual([traceIdOf(7)]);
        const refused = await request.get(`${server.baseUrl}/api/traces?limit=0`, { headers: AUTH });
        expect(refused.status()).toBe(400);
        expect(await refused.text()).toContain('Invalid query parameter limit');
        await server.stop();
      }
    }
    expect(kills).toBe(CRASHES);
    expect(ackedBeforeKills).toBeGreaterThan(CRASHES * 3);
    // No temp or stray files: the database and its write-ahead log, the saved-folder index.
    const files = readdirSync(env.LOOPSCOPE_DATA_DIR, { recursive: true }).map(String);
    expect(files.filter((file) => file.endsWith('.tmp'))).toEqual([]);
    expect(files.filter((file) => !/^loopscope\.db(-wal|-shm)?$|^saved-index\.json$/.test(file))).toEqual([]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
