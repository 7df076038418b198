/**
 * A runtime's resume rules against every row its framework recorded (answer-probes.json): each
 * probe's answer, as the workbench writes it, is accepted or refused as the framework accepted or
 * refused it, a refusal saying the framework's own error, and the runtime's own assertions hold
 * (its payload is what the framework was sent, its warnings say what the framework silently did).
 * Rows the workbench cannot write are skipped, and their list is asserted. No framework runs here:
 * describe-live-answer-probes.ts checks that the framework still does what was recorded.
 */
import { describe, expect, it } from 'vitest';
import type { AnswerProbeRules, ProbeCheck } from './answer-probe-rules';
import { recordedAnswerProbes } from './answer-probes';

/** Registers the tests (call with `await`, at a test file's top level: the checks are made first, to name the tests). */
export async function describeAnswerProbeRules<Check extends ProbeCheck>(rules: AnswerProbeRules<Check>): Promise<void> {
  const probes = recordedAnswerProbes(rules.runtime);
  const checks = await Promise.all(probes.map((probe) => rules.check(probe)));
  const normalize = rules.normalize ?? ((message: string) => message);
  describe(`${rules.framework}: Loopscope's rules say what ${rules.framework} did with each recorded answer`, () => {
    it(`writes every answer as the workbench's but ${rules.inexpressible.length}`, () => {
      expect(probes.filter((_probe, index) => 'inexpressible' in checks[index]).map((probe) => probe.name)).toEqual(rules.inexpressible);
    });

    probes.forEach((probe, index) => {
      const check = checks[index];
      const { result } = probe;
      const title = `${probe.name}: ${result.accepted ? 'accepted' : `refused (${result.error?.type})`}`;
      if ('inexpressible' in check) {
        it.skip(`${title} — not written by the workbench: ${check.inexpressible}`, () => {});
        return;
      }
      it(title, () => {
        expect(check.verdict, check.errors.join('\n')).toBe(result.accepted ? 'accepted' : 'refused');
        if (!result.accepted) {
          const said = check.errors.map(normalize).join('\n');
          const refusal = rules.refusal?.(result) ?? `${result.error?.type}: ${normalize(result.error?.message ?? '')}`;
          if (typeof refusal === 'string') expect(said).toContain(refusal);
          else expect(said).toMatch(refusal);
        }
        rules.agrees?.({ probe, check });
      });
    });
  });
}
