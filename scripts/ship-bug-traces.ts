/**
 * Ships the genkit 1.42 resume-bug recordings as example traces in traces/, each with a
 * one-line description the UI shows. The recordings are the real genkit runs made by
 * lib/graph/__fixtures__/make-fixtures.ts (their long descriptions say exactly what genkit
 * did); this copies their spans unchanged and checks each still replays as recorded.
 *
 *   node --import tsx scripts/ship-bug-traces.ts
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readRecording } from '../lib/replay/read-recording';
import { replayRecording } from '../lib/replay/run-replay';
import { writeFileAtomic } from '../lib/trace/atomic-write';
import { loadTraceFile } from '../lib/trace/load-trace-file';

const FIXTURES = path.join(process.cwd(), 'lib/graph/__fixtures__');

/** fixture → shipped name and the one line shown in the UI. */
export const BUG_TRACES = [
  {
    fixture: 'bug1-restart-reinterrupts',
    name: 'genkit-bug-1-restart-reinterrupts',
    description: "genkit 1.42 bug 1: a restarted tool that interrupts again crashes the resume with TypeError \"Cannot read properties of undefined (reading 'tools')\" instead of FAILED_PRECONDITION.",
  },
  {
    fixture: 'bug2-replace-input',
    name: 'genkit-bug-2-replace-input',
    description: 'genkit 1.42 bug 2: restart with replaceInput runs the tool with the new input (amount 50), but the model still sees the original request (amount 500) in the history.',
  },
  {
    fixture: 'bug3-mutated-messages',
    name: 'genkit-bug-3-mutated-messages',
    description: "genkit 1.42 bug 3: the resume rewrites the caller's messages in place, so retrying the same resume fails with INVALID_ARGUMENT (pendingOutput stripped) — after re-running the restarted tool.",
  },
  {
    fixture: 'bug4-no-ref',
    name: 'genkit-bug-4-no-ref',
    description: 'genkit 1.42 bug 4: two interrupted calls of one tool without ref both receive the first answer (alice approves both refunds; bob’s refusal is lost).',
  },
  {
    fixture: 'bug5-tool-alone',
    name: 'genkit-bug-5-tool-alone',
    description: 'genkit 1.42 bug 5: an interrupting tool run on its own (outside generate) gives its caller an error with an empty message and no interrupt data.',
  },
] as const;

async function main() {
  for (const bug of BUG_TRACES) {
    const source = path.join(FIXTURES, `${bug.fixture}.otlp.json`);
    const body = JSON.parse(await readFile(source, 'utf8')) as Record<string, unknown>;
    const report = await replayRecording(readRecording(await loadTraceFile(source)));
    if (!report.matched) throw new Error(`${bug.fixture} no longer replays as recorded: ${report.divergences[0]?.message}`);
    const shipped = { description: bug.description, resourceSpans: body.resourceSpans };
    await writeFileAtomic(path.join(process.cwd(), 'traces', `${bug.name}.json`), `${JSON.stringify(shipped, null, 1)}\n`);
    console.log(`traces/${bug.name}.json — replays as recorded (${report.steps.length} step(s))`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
