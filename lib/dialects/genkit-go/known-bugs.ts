/** What genkit Go 1.4.0 gets wrong in its tool loop, as measured (lib/dialects/genkit-go/__fixtures__), in the words the graph shows. */
export const GENKIT_GO_VERSION = 'genkit Go 1.4.0';

export const GENKIT_GO_BUGS = {
  /** RestartOptions.ReplaceInput: the tool runs with the new input; the history keeps the old one and records no replacedInput. */
  replaceInputKeepsHistory: (tool: string) =>
    `${GENKIT_GO_VERSION}: the restart of ${tool} ran with a new input (RestartOptions.ReplaceInput), but the history the model sees keeps the original input and records no replacedInput.`,
} as const;
