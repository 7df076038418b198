import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeVerdictOf, type RespondAnswer, type RestartAnswer, type ResumeVerdict } from '../../../contract/resume-answers';
import { resumeContextFrom, type ResumeContext } from '../../resume-context';
import { validateResume } from '../../validate-resume';
import { buildGoRunner, startGoRunner, type GoRunner } from '../run/go-runner';
import { startTestReceiver, type TestReceiver } from '../../../server/testing/capture-harness';
import type { LocalToolFacts } from '../../../loop/resume-model';

/**
 * The genkit Go answer table (docs/interrupt-model.md, "genkit Go"): every answer is checked by
 * the Go dialect's rules on the paused call's real spans, then the same answer is sent through
 * real genkit Go (v1.12.0, the Go runner with the tools of tools/go/), and the two must agree —
 * accepted or refused, the status, Go's words where Loopscope quotes them, and every schema
 * problem Go lists. An `unchecked` verdict is the rules saying the trace cannot tell: the row
 * records what Go did.
 */
let receiver: TestReceiver;
let runner: GoRunner;
let scenariosDir: string;

/** Test-only scenarios beside the project's (the runner reads one folder). */
const TEST_SCENARIOS = {
  // Two interrupts in one turn: a stable tool (askUser) and a typed one (bookFlight, resume type tools.Confirmation).
  'go-verdict-two-interrupts': {
    name: 'go-verdict-two-interrupts',
    runtime: 'genkit-go',
    title: 'genkit Go: two interrupts in one turn (answer table)',
    description: 'askUser and bookFlight both interrupt; the resume shows what the model was told of each.',
    prompt: 'Book me a seat and a flight.',
    tools: ['askUser', 'bookFlight'],
    script: [
      {
        toolRequests: [
          { name: 'askUser', ref: 'ask-1', input: { question: 'Window or aisle?', choices: ['Window', 'Aisle'] } },
          { name: 'bookFlight', ref: 'flight-1', input: { from: 'LIS', to: 'OPO', date: '2027-06-03' } },
        ],
      },
      { text: 'seat {{askUser#ask-1.answer}}; flight {{bookFlight#flight-1}}' },
    ],
  },
};

beforeAll(async () => {
  scenariosDir = await mkdtemp(path.join(os.tmpdir(), 'loopscope-go-verdicts-'));
  await cp(path.join(process.cwd(), 'tools', 'go', 'scenarios'), scenariosDir, { recursive: true });
  for (const [name, scenario] of Object.entries(TEST_SCENARIOS)) await writeFile(path.join(scenariosDir, `${name}.json`), JSON.stringify(scenario));
  receiver = await startTestReceiver();
  const binary = await buildGoRunner({ projectDir: process.cwd() });
  runner = await startGoRunner({ binary, projectDir: process.cwd(), otlpEndpoint: receiver.endpoint, token: receiver.token, scenariosDir });
}, 600_000);
afterAll(async () => {
  await runner?.stop();
  await receiver?.close();
  if (scenariosDir) await rm(scenariosDir, { recursive: true, force: true });
});

/** Each scenario's paused call, run once: the history to resume and the context rebuilt from its spans. */
const pausedCalls = new Map<string, Promise<{ messages: unknown[]; context: ResumeContext }>>();
function pausedCall(scenario: string) {
  if (!pausedCalls.has(scenario)) {
    pausedCalls.set(
      scenario,
      (async () => {
        const first = await runner.generate({ scenario });
        expect(first.outcome?.finishReason, scenario).toBe('interrupted');
        const spans = [];
        for (const traceId of first.traceIds ?? []) spans.push(...((await receiver.store.get(traceId)) ?? []));
        return { messages: first.outcome!.messages, context: resumeContextFrom(spans) };
      })(),
    );
  }
  return pausedCalls.get(scenario)!;
}

interface Row {
  answer: string;
  scenario: string;
  respond?: RespondAnswer[];
  restart?: RestartAnswer[];
  /** What the rules know of the tools: the Go runner's word (its resume types), or only the trace. */
  facts: 'runner' | 'trace';
  /** What genkit Go did. */
  go: 'accepted' | 'refused';
  loopscope: ResumeVerdict;
  /** genkit Go's words, in its failure and in Loopscope's error. */
  quote?: string;
  /** genkit's status of the failure, which is Loopscope's code for it. */
  status?: string;
  /** Both list the same schema problems (`- field: description`; Go's order varies from run to run). */
  sameProblems?: true;
  /** What the model was told (the scripted model writes it back). */
  text?: string;
  /** Loopscope's warning or unchecked note saying what Go will do. */
  note?: RegExp;
}

const ASK = { name: 'askUser', ref: 'ask-1' };
const FLIGHT = { name: 'bookFlight', ref: 'flight-1' };
const TWO = 'go-verdict-two-interrupts';
const TABLE: Row[] = [
  { answer: 'nothing answered', scenario: TWO, facts: 'runner', go: 'accepted', loopscope: 'accepted', text: 'seat (no askUser#ask-1.answer); flight (no bookFlight#flight-1)', note: /not answered, and nothing else is/ },
  {
    answer: 'one interrupt answered, the other left',
    scenario: TWO,
    respond: [{ ...ASK, output: { answer: 'Window' } }],
    facts: 'runner',
    go: 'refused',
    loopscope: 'refused',
    status: 'INVALID_ARGUMENT',
    quote: 'unresolved tool request "#flight-1" was not handled by the Resume argument; you must supply Respond or Restart directives, or ensure there is pending output from a previous tool call',
  },
  { answer: 'both answered (typed data checked against the runner’s resume type)', scenario: TWO, respond: [{ ...ASK, output: { answer: 'Window' } }], restart: [{ ...FLIGHT, resumed: { confirmed: true } }], facts: 'runner', go: 'accepted', loopscope: 'accepted', text: 'seat Window; flight {"flight":{"date":"2027-06-03","from":"LIS","to":"OPO"},"status":"booked"}' },
  { answer: 'the same, the resume type not known', scenario: TWO, respond: [{ ...ASK, output: { answer: 'Window' } }], restart: [{ ...FLIGHT, resumed: { confirmed: true } }], facts: 'trace', go: 'accepted', loopscope: 'unchecked', note: /resume data of bookFlight#flight-1 is unchecked: bookFlight is recorded as a multipart tool/ },
  {
    answer: 'typed data of the wrong type ({"confirmed":"yes"} for a bool)',
    scenario: TWO,
    respond: [{ ...ASK, output: { answer: 'Window' } }],
    restart: [{ ...FLIGHT, resumed: { confirmed: 'yes' } }],
    facts: 'runner',
    go: 'refused',
    loopscope: 'refused',
    status: 'INTERNAL',
    quote: 'tool "bookFlight" failed: error calling tool bookFlight: aix.wrapInterruptibleFunc: failed to convert resumed data: json: cannot unmarshal string into Go struct field',
  },
  { answer: 'the same, the resume type not known', scenario: TWO, respond: [{ ...ASK, output: { answer: 'Window' } }], restart: [{ ...FLIGHT, resumed: { confirmed: 'yes' } }], facts: 'trace', go: 'refused', loopscope: 'unchecked', note: /is unchecked/ },
  {
    answer: 'a respond and a restart of the same call',
    scenario: TWO,
    respond: [{ ...ASK, output: { answer: 'Aisle' } }, { ...FLIGHT, output: { output: { status: 'held' } } }],
    restart: [{ ...ASK, resumed: { seat: 'any' } }],
    facts: 'runner',
    go: 'accepted',
    loopscope: 'accepted',
    text: 'seat Aisle;',
    note: /askUser#ask-1 is answered 2 times: genkit Go takes the first response part .* askUser is not run again/,
  },
  { answer: 'two response parts for one call', scenario: TWO, respond: [{ ...ASK, output: { answer: 'Aisle' } }, { ...ASK, output: { answer: 'Window' } }, { ...FLIGHT, output: { output: { status: 'held' } } }], facts: 'runner', go: 'accepted', loopscope: 'accepted', text: 'seat Aisle;', note: /answered 2 times/ },
  {
    answer: 'a response that breaks the output schema (every problem listed)',
    scenario: TWO,
    respond: [{ ...ASK, output: { answer: 5, x: 1, y: 2 } }, { ...FLIGHT, output: { output: {} } }],
    facts: 'runner',
    go: 'refused',
    loopscope: 'refused',
    status: 'INVALID_ARGUMENT',
    quote: 'handleResumedToolRequest: tool "askUser" output validation failed: data did not match expected schema:',
    sameProblems: true,
  },
  {
    answer: 'a bare response to a typed tool (checked against the envelope)',
    scenario: TWO,
    respond: [{ ...ASK, output: { answer: 'Window' } }, { ...FLIGHT, output: { status: 'booked', a: 1, content: 5 } }],
    facts: 'runner',
    go: 'refused',
    loopscope: 'refused',
    status: 'INVALID_ARGUMENT',
    quote: 'handleResumedToolRequest: tool "bookFlight" output validation failed: data did not match expected schema:',
    sameProblems: true,
  },
  {
    answer: 'an envelope whose content is wrong deep inside',
    scenario: TWO,
    respond: [{ ...ASK, output: { answer: 'Window' } }, { ...FLIGHT, output: { output: {}, content: [{ text: 5 }] } }],
    facts: 'runner',
    go: 'refused',
    loopscope: 'refused',
    status: 'INVALID_ARGUMENT',
    quote: 'handleResumedToolRequest: tool "bookFlight" output validation failed: data did not match expected schema:',
    sameProblems: true,
  },
  { answer: 'a response missing a required field', scenario: 'go-respond-to-question', respond: [{ name: 'askUser', ref: 'seat-1', output: {} }], facts: 'runner', go: 'refused', loopscope: 'refused', status: 'INVALID_ARGUMENT', quote: 'data did not match expected schema:\n- (root): answer is required', sameProblems: true },
  { answer: 'an {"output": …} response to a typed tool', scenario: TWO, respond: [{ ...ASK, output: { answer: 'Window' } }, { ...FLIGHT, output: { output: { status: 'booked' } } }], facts: 'runner', go: 'accepted', loopscope: 'accepted', text: 'flight {"output":{"status":"booked"}}', note: /the model sees \{"output": …\} as the tool's output/ },
  { answer: 'resume data that is a string', scenario: TWO, respond: [{ ...ASK, output: { answer: 'Window' } }], restart: [{ ...FLIGHT, resumed: 'yes' }], facts: 'runner', go: 'refused', loopscope: 'refused', quote: 'tool.Resume: resume data must serialize to a JSON object (a struct or map), got string' },
  { answer: 'resume data that is an array', scenario: TWO, respond: [{ ...ASK, output: { answer: 'Window' } }], restart: [{ ...FLIGHT, resumed: [1] }], facts: 'runner', go: 'refused', loopscope: 'refused', quote: 'tool.Resume: resume data must serialize to a JSON object (a struct or map), got []interface {}' },
  { answer: 'resume data null (no data)', scenario: TWO, respond: [{ ...ASK, output: { answer: 'Window' } }], restart: [{ ...FLIGHT, resumed: null }], facts: 'trace', go: 'accepted', loopscope: 'accepted', text: '"status":"not-booked"', note: /restarted with no resume data/ },
  {
    answer: 'a new input that breaks the input schema',
    scenario: TWO,
    respond: [{ ...ASK, output: { answer: 'Window' } }],
    restart: [{ ...FLIGHT, resumed: { confirmed: true }, replaceInput: { from: 5 } }],
    facts: 'runner',
    go: 'refused',
    loopscope: 'refused',
    status: 'INTERNAL',
    quote: 'tool "bookFlight" failed: error calling tool bookFlight: invalid input to action "/tool.v2/bookFlight": data did not match expected schema:',
    sameProblems: true,
  },
  { answer: 'a restart that leaves a finished sibling to its pendingOutput', scenario: 'go-parallel-pending-output', restart: [{ name: 'transferMoney', ref: 'refund-1', resumed: { approved: true, approvedBy: 'z' } }], facts: 'runner', go: 'accepted', loopscope: 'accepted', text: 'approved by z' },
  { answer: 'an answer to the finished sibling', scenario: 'go-parallel-pending-output', respond: [{ name: 'lookupOrder', ref: 'order-1', output: {} }], restart: [{ name: 'transferMoney', ref: 'refund-1', resumed: { approvedBy: 'z' } }], facts: 'runner', go: 'refused', loopscope: 'refused', quote: 'tool.Respond: part is not an interrupted tool request' },
  { answer: 'a ToolApproval hold restarted without toolApproved: true', scenario: 'go-tool-approval-approved', restart: [{ name: 'sendEmail', ref: 'email-1', resumed: { toolApproved: false } }], facts: 'runner', go: 'refused', loopscope: 'refused', status: 'FAILED_PRECONDITION', quote: 'One or more tools triggered an interrupt during a restarted execution.' },
  { answer: 'a ToolApproval hold approved', scenario: 'go-tool-approval-approved', restart: [{ name: 'sendEmail', ref: 'email-1', resumed: { toolApproved: true } }], facts: 'trace', go: 'accepted', loopscope: 'accepted', text: 'Email sent to ana@example.com' },
  {
    answer: 'a ToolApproval hold refused by a response, with a restart that would be held again',
    scenario: 'go-tool-approval-approved',
    respond: [{ name: 'sendEmail', ref: 'email-1', output: { status: 'not sent', to: 'ana@example.com', subject: 'Lisbon weather' } }],
    restart: [{ name: 'sendEmail', ref: 'email-1', resumed: { toolApproved: false } }],
    facts: 'runner',
    go: 'accepted',
    loopscope: 'accepted',
    text: 'Email not sent to ana@example.com',
    note: /answered 2 times: genkit Go takes the first response part/,
  },
];

const problemLines = (message: string) => message.split('\n').filter((line) => line.startsWith('- ')).sort();

describe('the genkit Go answer table: Loopscope’s verdict against real genkit Go 1.12.0, row by row', () => {
  it.each(TABLE.map((row) => [`${row.scenario}: ${row.answer} (${row.facts})`, row] as const))('%s', async (_title, row) => {
    const { messages, context } = await pausedCall(row.scenario);
    const localTools: ReadonlyMap<string, LocalToolFacts> | undefined = row.facts === 'runner' ? new Map(runner.tools.map((tool) => [tool.name, { resumeType: tool.resumeType, resumeSchema: tool.resumeSchema }])) : undefined;
    const validation = validateResume({ context, respond: row.respond, restart: row.restart, localTools });
    const verdict = resumeVerdictOf(validation);
    const result = await runner.generate({ scenario: row.scenario, messages, resume: { respond: row.respond, restart: row.restart } });
    const go = result.failure ? 'refused' : 'accepted';
    expect({ go, loopscope: verdict, errors: validation.errors.map((issue) => issue.message) }).toMatchObject({ go: row.go, loopscope: row.loopscope });
    // A verdict is Go's, or says it cannot be told.
    expect(verdict === 'unchecked' || verdict === go).toBe(true);
    if (row.quote !== undefined) {
      expect(result.failure!.message).toContain(row.quote);
      const quoting = validation.errors.find((issue) => issue.message.includes(row.quote!));
      expect(quoting, `no Loopscope error quotes ${row.quote}`).toBeDefined();
      if (row.status) {
        expect(result.failure!.status).toBe(row.status);
        expect(quoting!.code).toBe(row.status);
      }
      if (row.sameProblems) {
        expect(problemLines(quoting!.message)).toEqual(problemLines(result.failure!.message));
        expect(problemLines(quoting!.message).length).toBeGreaterThan(0);
      }
    }
    if (row.text !== undefined) expect(result.outcome?.text).toContain(row.text);
    if (row.note) expect([...validation.warnings, ...(validation.unchecked ?? [])].map((issue) => issue.message).join('\n')).toMatch(row.note);
  });
});
