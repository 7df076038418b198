import { describe, expect, it } from 'vitest';
import type { InterruptedGenerateKey, ResumeGenerateKey } from '../spans/trace-link-keys';
import { matchResumes } from './match-resumes';

/** Synthetic keys for the rules of matchResumes; the real traces are in link-resumes.test.ts. */
const interrupt = (id: string, startTime: number, extra: Partial<InterruptedGenerateKey> = {}): InterruptedGenerateKey => ({
  generateId: `${id}:g`,
  traceId: id,
  resource: { service: 'app' },
  startTime,
  requests: 'transferMoney#t1#{"amount":500}',
  history: 'h',
  ...extra,
});
const resume = (id: string, startTime: number, extra: Partial<ResumeGenerateKey> = {}): ResumeGenerateKey => ({ ...interrupt(id, startTime), ...extra });
const pairs = (keys: Parameters<typeof matchResumes>[0]) => matchResumes(keys).map((match) => [match.resumeId.split(':')[0], match.interruptedId.split(':')[0], match.evidence]);

describe('matchResumes', () => {
  it('an OTel span link wins over content that points elsewhere', () => {
    const keys = { interrupted: [interrupt('A', 1), interrupt('B', 2)], resumes: [resume('R', 3, { links: ['A:g'] })] };
    expect(pairs(keys)).toEqual([['R', 'A', 'link']]);
  });

  it('a link marked as Loopscope’s answer link is never overruled, even when its target is not loaded', () => {
    const keys = { interrupted: [interrupt('B', 2)], resumes: [resume('R', 3, { links: ['A:g'], authoritative: true })] };
    expect(pairs(keys)).toEqual([]);
    // Another app's link to something else is no answer link: content decides.
    expect(pairs({ ...keys, resumes: [resume('R', 3, { links: ['X:parent'] })] })).toEqual([['R', 'B', 'history']]);
  });

  it('a linked answer claims its interrupt first; content resumes take the others', () => {
    const keys = { interrupted: [interrupt('A', 1), interrupt('B', 2)], resumes: [resume('R1', 3), resume('R2', 4, { links: ['B:g'] })] };
    const matches = matchResumes(keys);
    expect(matches.map((match) => [match.resumeId, match.interruptedId])).toEqual([
      ['R2:g', 'B:g'],
      ['R1:g', 'A:g'],
    ]);
    // B is taken by a verified answer: R1 is not said to "also answer" it.
    expect(matches[1].couldAlsoAnswer).toEqual([]);
  });

  it('the whole history decides between conversations with the same requests', () => {
    const keys = {
      interrupted: [interrupt('A', 1, { history: 'hA' }), interrupt('B', 2, { history: 'hB' })],
      resumes: [resume('RB', 3, { history: 'hB' }), resume('RA', 4, { history: 'hA' })],
    };
    expect(pairs(keys)).toEqual([
      ['RB', 'B', 'history'],
      ['RA', 'A', 'history'],
    ]);
    expect(matchResumes(keys).every((match) => match.couldAlsoAnswer.length === 0)).toBe(true);
  });

  it('without a matching history the requests still link, as a guess among the candidates', () => {
    const keys = { interrupted: [interrupt('A', 1, { history: 'hA' }), interrupt('B', 2, { history: 'hB' })], resumes: [resume('R', 3, { history: 'edited' })] };
    const [match] = matchResumes(keys);
    expect([match.interruptedId, match.evidence, match.couldAlsoAnswer]).toEqual(['B:g', 'requests', ['A:g']]);
  });

  it('one answer per interrupt: identical conversations link one to one, nearest earlier unanswered first', () => {
    const keys = { interrupted: [interrupt('A', 1), interrupt('B', 2)], resumes: [resume('RB', 3), resume('RA', 4)] };
    const matches = matchResumes(keys);
    expect(matches.map((match) => [match.resumeId, match.interruptedId, match.couldAlsoAnswer])).toEqual([
      ['RB:g', 'B:g', ['A:g']],
      ['RA:g', 'A:g', ['B:g']],
    ]);
  });

  it('a guess among many identical interrupts names the nearest few and counts the rest', () => {
    const interrupted = Array.from({ length: 50 }, (_, index) => interrupt(`I${index}`, index));
    const [match] = matchResumes({ interrupted, resumes: [resume('R', 100)] });
    expect(match.interruptedId).toBe('I49:g');
    expect(match.couldAlsoAnswer).toEqual(['I48:g', 'I47:g', 'I46:g']);
    expect(match.alternatives).toBe(49);
  });

  it('more resumes than interrupts: the extra answers are branches of the nearest one', () => {
    const keys = { interrupted: [interrupt('A', 1)], resumes: [resume('R1', 2), resume('R2', 3), resume('R3', 4)] };
    expect(pairs(keys)).toEqual([
      ['R1', 'A', 'history'],
      ['R2', 'A', 'history'],
      ['R3', 'A', 'history'],
    ]);
  });

  it('never links across services, nor across instances when both name one, nor to a later interrupt', () => {
    const other = { interrupted: [interrupt('A', 1, { resource: { service: 'billing' } })], resumes: [resume('R', 2, { resource: { service: 'payroll' } })] };
    expect(pairs(other)).toEqual([]);
    const instances = { interrupted: [interrupt('A', 1, { resource: { service: 'app', instance: 'i-1' } })], resumes: [resume('R', 2, { resource: { service: 'app', instance: 'i-2' } })] };
    expect(pairs(instances)).toEqual([]);
    const oneSided = { interrupted: [interrupt('A', 1, { resource: { service: 'app', instance: 'i-1' } })], resumes: [resume('R', 2)] };
    expect(pairs(oneSided)).toEqual([['R', 'A', 'history']]);
    expect(pairs({ interrupted: [interrupt('A', 5)], resumes: [resume('R', 2)] })).toEqual([]);
  });

  it('prefers an interrupt in the resume’s own trace (a flow that resumes itself)', () => {
    const keys = {
      interrupted: [interrupt('T1', 1, { generateId: 'T1:a' }), interrupt('T2', 2, { generateId: 'T2:a' })],
      resumes: [resume('T1', 3, { generateId: 'T1:b' }), resume('T2', 4, { generateId: 'T2:b' })],
    };
    expect(matchResumes(keys).map((match) => [match.resumeId, match.interruptedId, match.couldAlsoAnswer])).toEqual([
      ['T1:b', 'T1:a', []],
      ['T2:b', 'T2:a', []],
    ]);
  });

  it('within its own trace, a guess names and counts only that trace’s interrupts, however many other traces hold the same', () => {
    const copies = Array.from({ length: 50 }, (_, copy) => interrupt(`C${copy}`, copy));
    const keys = {
      interrupted: [...copies, interrupt('T', 60, { generateId: 'T:a' }), interrupt('T', 61, { generateId: 'T:b' }), interrupt('T', 62, { generateId: 'T:c' })],
      resumes: [resume('T', 70, { generateId: 'T:r' })],
    };
    expect(matchResumes(keys)).toEqual([{ resumeId: 'T:r', interruptedId: 'T:c', evidence: 'history', couldAlsoAnswer: ['T:b', 'T:a'], alternatives: 2 }]);
    // Another trace's resume chooses among all the copies (none is in its own trace).
    const elsewhere = matchResumes({ ...keys, resumes: [resume('R', 70)] });
    expect(elsewhere[0]).toMatchObject({ interruptedId: 'T:c', alternatives: 52 });
  });
});
