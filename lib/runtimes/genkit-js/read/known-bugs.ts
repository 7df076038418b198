/**
 * genkit 1.42's known resume bugs (docs/interrupt-model.md §7), once: their titles (the repro
 * header), the note the graph puts on a call that shows one, and the warning the resume checks
 * give before an answer would run into one. Where each is detected: the call reader
 * (read-generate.ts: 1, 2, 4), after linking (3), a tool run alone (5), the resume rules
 * (1, 2, 4 as warnings) and a recording (recorded-bugs.ts, all five). Reproduce them; never
 * paper over them.
 */
export type GenkitBugNumber = 1 | 2 | 3 | 4 | 5;

/** The genkit version these bugs were measured on. */
export const GENKIT_BUGS_VERSION = 'genkit 1.42';

export const GENKIT_BUGS = {
  1: {
    title: 'a restart whose tool interrupts again crashes',
    graphNote: () => `${GENKIT_BUGS_VERSION} bug 1: the restarted tool interrupted again and genkit crashed with a TypeError instead of a FAILED_PRECONDITION error.`,
    resumeWarning: (tool: string) =>
      `${tool} is respond-only (defineInterrupt): restarting it interrupts again, and ${GENKIT_BUGS_VERSION} then crashes with a TypeError (bug 1). Answer it with respond.`,
  },
  2: {
    title: '`replaceInput` does not amend the history',
    graphNote: () => `${GENKIT_BUGS_VERSION} bug 2: replaceInput ran the tool with the new input, but the history the model sees keeps the original input.`,
    resumeWarning: () => `${GENKIT_BUGS_VERSION} bug 2: replaceInput runs the tool with the new input, but the history the model sees keeps the original input.`,
  },
  3: {
    title: "resume mutates the caller's `messages` in place",
    graphNote: (tool: string) =>
      `${GENKIT_BUGS_VERSION} bug 3: an earlier resume rewrote the shared messages in place and stripped the pendingOutput of ${tool}, so retrying the same resume fails.`,
  },
  4: {
    title: 'two interrupted calls of one tool without `ref` both receive the first answer',
    graphNote: (count: number, tool: string) =>
      `${GENKIT_BUGS_VERSION} bug 4: ${count} interrupted calls of ${tool} have no ref, so they cannot be answered separately: each gets the first answer.`,
    resumeWarning: (count: number, tool: string) => `${GENKIT_BUGS_VERSION} bug 4: ${count} interrupted calls of ${tool} have no ref; each will get the first answer.`,
  },
  5: {
    title: 'an interrupting tool run on its own yields an error with an empty message and no interrupt data',
    graphNote: () =>
      `${GENKIT_BUGS_VERSION} bug 5: an interrupting tool run on its own gives its caller an error with an empty message; only generate turns an interrupt into a pause.`,
  },
} as const;
