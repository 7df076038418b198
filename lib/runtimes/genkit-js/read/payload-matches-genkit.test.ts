import path from 'node:path';
import { genkit, type GenkitBeta } from 'genkit/beta';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadToolModules } from '../run/load-tools';
import { loadTraceFile } from '../../../store/load-trace-file';
import type { Span } from '../../../spans/span';
import { resumeContextFrom, type ResumeContext } from '../../resume-context';
import { validateResume } from '../../validate-resume';

/**
 * The parts Loopscope builds from a saved trace must be the parts genkit's own
 * `tool.respond` / `tool.restart` build from the same interrupt.
 */
interface ToolBuilders {
  respond(interrupt: unknown, output: unknown): unknown;
  restart(interrupt: unknown, resumed?: unknown, options?: { replaceInput?: unknown }): unknown;
}

let ai: GenkitBeta;
beforeAll(async () => {
  ai = genkit({});
  await loadToolModules(ai, path.join(process.cwd(), 'tools'));
});

async function firstTraceContext(name: string): Promise<ResumeContext> {
  const spans: Span[] = await loadTraceFile(path.join(process.cwd(), 'traces', `${name}.json`));
  const first = spans.filter((span) => span.parentSpanId === undefined).sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1))[0];
  return resumeContextFrom(spans.filter((span) => span.traceId === first.traceId));
}

function interruptPart(context: ResumeContext, name: string): unknown {
  const last = context.messages.at(-1) as { content: { toolRequest?: { name: string } }[] };
  return last.content.find((part) => part.toolRequest?.name === name);
}

const tool = async (name: string) => (await ai.registry.lookupAction(`/tool/${name}`)) as unknown as ToolBuilders;

describe('Loopscope’s resume parts equal genkit’s own', () => {
  it('respond, from the saved respond-to-question trace', async () => {
    const context = await firstTraceContext('respond-to-question');
    const ours = validateResume({ context, respond: [{ name: 'askUser', ref: 'seat-1', output: { answer: 'Aisle' } }] }).payload.resume!.respond[0];
    const genkits = (await tool('askUser')).respond(interruptPart(context, 'askUser'), { answer: 'Aisle' });
    expect(ours).toEqual(genkits);
  });

  it('restart with resumed metadata, and with replaceInput, from the saved restart-after-approval trace', async () => {
    const context = await firstTraceContext('restart-after-approval');
    const transfer = await tool('transferMoney');
    const part = interruptPart(context, 'transferMoney');
    const ours = validateResume({ context, restart: [{ name: 'transferMoney', ref: 'transfer-1', resumed: { approved: true, approvedBy: 'alice' } }] }).payload.resume!.restart[0];
    expect(ours).toEqual(transfer.restart(structuredClone(part), { approved: true, approvedBy: 'alice' }));
    const replaced = validateResume({ context, restart: [{ name: 'transferMoney', ref: 'transfer-1', replaceInput: { to: 'Bob', amountUsd: 50 } }] }).payload.resume!.restart[0];
    expect(replaced).toEqual(transfer.restart(structuredClone(part), undefined, { replaceInput: { to: 'Bob', amountUsd: 50 } }));
  });
});
