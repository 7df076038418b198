/**
 * `loopscope/ai-sdk` resolves through package.json `exports` as an app imports it (plain Node with
 * tsx and the `loopscope-source` condition in the clone; the built package's dist/lib/ai-sdk.js
 * is e2e/package.spec.ts's), and its entry loads without side effects — nothing is registered,
 * nothing sent, until the app calls `loopscopeTelemetry()`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PROJECT_DIR = path.resolve(import.meta.dirname, '../../..');

describe("import … from 'loopscope/ai-sdk'", () => {
  it('gives the four exports, and registers no telemetry integration by being imported', () => {
    const script = `import * as ai from 'loopscope/ai-sdk';
process.stdout.write(JSON.stringify({ exports: Object.keys(ai).sort(), integrations: globalThis.AI_SDK_TELEMETRY_INTEGRATIONS?.length ?? 0 }));`;
    const result = spawnSync(process.execPath, ['--conditions=loopscope-source', '--import', 'tsx', '--input-type=module', '--eval', script], { cwd: PROJECT_DIR, encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ exports: ['answerInLoopscope', 'loopscopeStep', 'loopscopeTelemetry', 'loopscopeTools'], integrations: 0 });
  });
});
