/**
 * `loopscope graph` on OTLP protobuf trace files: a committed trace of a real genkit run,
 * encoded by OpenTelemetry's ProtobufTraceSerializer, draws the same Graph JSON as its JSON.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../store/load-trace-file';
import { encodeOtlpProtobufFile } from '../spans/testing/otlp-protobuf-file';

const folder = mkdtempSync(path.join(tmpdir(), 'loopscope-graph-protobuf-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function loopscope(...args: string[]) {
  const result = spawnSync(process.execPath, ['bin/loopscope.js', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('loopscope graph <OTLP protobuf file>', () => {
  it('prints the Graph JSON of the JSON trace for its protobuf encoding, plain and gzipped', async () => {
    const json = 'traces/restart-after-approval.json';
    const protobuf = encodeOtlpProtobufFile(await loadTraceFile(json));
    writeFileSync(path.join(folder, 'restart.pb'), protobuf);
    writeFileSync(path.join(folder, 'restart.otlp.gz'), gzipSync(protobuf));

    const expected = loopscope('graph', json, '--json');
    expect(expected.status).toBe(0);
    for (const file of ['restart.pb', 'restart.otlp.gz']) {
      const result = loopscope('graph', path.join(folder, file), '--json');
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(JSON.parse(expected.stdout));
    }
    // Several files at once, mixing the formats: both are drawn, the restart still linked.
    const text = loopscope('graph', path.join(folder, 'restart.pb'), 'traces/plain-tool-round.json');
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^3 trace\(s\) · 3 generate\(s\)/);
    expect(text.stdout).toContain('scripted/plain-tool-round');
    expect(text.stdout).toMatch(/transferMoney#transfer-1 {2}paused .* → answered by restart in generate \d/);
  });

  it('exits 2 with one sentence naming the file for a broken protobuf file', () => {
    const file = path.join(folder, 'broken.pb');
    writeFileSync(file, Uint8Array.of(0x0a, 0x7f, 0x01));
    const result = loopscope('graph', file);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `loopscope: ${file}: not JSON, and not an OTLP protobuf ExportTraceServiceRequest either: length prefix 127 of ExportTraceServiceRequest.resource_spans exceeds the 1 bytes left at byte offset 1.\n`,
    );
  });
});
