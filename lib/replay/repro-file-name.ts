/**
 * The file name of a recording's repro program, for any runtime: `.json` and friends off, unsafe
 * characters out, the program's extension on (`repro-genkit-bug-1-restart-reinterrupts.ts`).
 */
export function reproFileName(source: string | undefined, extension = '.ts'): string {
  const base = (source ?? 'recording').split(/[\\/]/).pop()!.replace(/(\.otlp)?\.(json|jsonl|pb|bin)$/i, '');
  const safe = base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '');
  return `repro-${safe || 'recording'}${extension}`;
}
