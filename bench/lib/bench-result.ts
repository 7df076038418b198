/**
 * What a benchmark leaves behind in `bench/results/<benchmark>.json`: its numbers with the
 * machine and the commit they were measured on. These files are committed, and the Results
 * table of docs/performance.md is made from them (bench/lib/performance-table.ts), so a number
 * in the docs always names the run it came from.
 */
import { z } from 'zod';

/** A benchmark's name: its file is `bench/<name>.bench.ts`, its result `bench/results/<name>.json`. */
export const BenchmarkNameSchema = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a kebab-case benchmark name');

/** The load average (1, 5 and 15 minutes), as `os.loadavg()` gives it. */
const LoadAverageSchema = z.tuple([z.number(), z.number(), z.number()]);

export const BenchResultSchema = z
  .object({
    benchmark: BenchmarkNameSchema,
    /** False for a result written by hand from the numbers of an earlier run (copied from the docs, never made up). */
    measured: z.boolean(),
    /** When the run started (ISO 8601); for a hand-written result, the day of the copied numbers. */
    date: z.iso.datetime(),
    /** `git rev-parse --short HEAD` of the measured checkout; null where it is not known. */
    commit: z.string().nullable(),
    /** Whether the checkout had changes not committed (bench/results/ aside); null where not known. */
    dirty: z.boolean().nullable(),
    /** `process.version`, `os.cpus().length` and the load average before and after the run; null where not known. */
    node: z.string().nullable(),
    cpus: z.number().int().positive().nullable(),
    loadAverage: z.object({ start: LoadAverageSchema, end: LoadAverageSchema }).nullable(),
    /** How long the run took, in seconds. */
    seconds: z.number().nonnegative().nullable(),
    /** What the benchmark measures, in a sentence: the table's first column. */
    measures: z.string().min(1),
    /** The numbers the benchmark prints (ratios, medians, per-side times, counts), by name. */
    numbers: z.record(z.string(), z.json()),
    /** The result in a line, made from `numbers`: the table's result column. */
    summary: z.string().min(1),
    /** The target in words, or null for a benchmark that prints its numbers with no target. */
    target: z.string().min(1).nullable(),
    /** Whether this run met the target (every part of it); null when there is none. */
    met: z.boolean().nullable(),
    /** Where a hand-written result's numbers come from. */
    source: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((result, context) => {
    if ((result.target === null) !== (result.met === null)) context.addIssue({ code: 'custom', path: ['met'], message: 'met is null exactly when target is null' });
    if (result.measured) {
      for (const key of ['node', 'cpus', 'loadAverage', 'seconds'] as const) {
        if (result[key] === null) context.addIssue({ code: 'custom', path: [key], message: `a measured result names its ${key}` });
      }
    } else if (!result.source) {
      context.addIssue({ code: 'custom', path: ['source'], message: 'a hand-written result (measured: false) says where its numbers come from' });
    }
  });

export type BenchResult = z.infer<typeof BenchResultSchema>;

/** The part a benchmark supplies at its end; the rest is the run's circumstances. */
export type MeasuredResult = Pick<BenchResult, 'measures' | 'numbers' | 'summary' | 'target' | 'met'>;
