import { describe, expect, it } from 'vitest';
import { fillScriptText } from './script-text';

const outputs: Record<string, unknown> = {
  'askUser#seat-1': { answer: 'Aisle' },
  'transferMoney#transfer-1': { status: 'done', to: 'Bob', amountUsd: 500, approvedBy: 'carol' },
};
const outputOf = ({ name, ref }: { name: string; ref: string }) => (`${name}#${ref}` in outputs ? { found: true, output: outputs[`${name}#${ref}`] } : { found: false });

describe('fillScriptText', () => {
  it('puts what the tools returned into the scripted text: fields, numbers, whole outputs', () => {
    expect(fillScriptText('Booked your seat ({{askUser#seat-1.answer}}).', outputOf)).toBe('Booked your seat (Aisle).');
    expect(fillScriptText('{{transferMoney#transfer-1.amountUsd}} USD, approved by {{ transferMoney#transfer-1.approvedBy }}.', outputOf)).toBe('500 USD, approved by carol.');
    expect(fillScriptText('{{askUser#seat-1}}', outputOf)).toBe('{"answer":"Aisle"}');
  });

  it('says what is missing instead of failing, and leaves other braces alone', () => {
    expect(fillScriptText('by {{transferMoney#transfer-2.approvedBy}}', outputOf)).toBe('by (no transferMoney#transfer-2.approvedBy)');
    expect(fillScriptText('by {{askUser#seat-1.nope}}', outputOf)).toBe('by (no askUser#seat-1.nope)');
    expect(fillScriptText('a {literal} and {{not a reference}}', outputOf)).toBe('a {literal} and {{not a reference}}');
  });
});
