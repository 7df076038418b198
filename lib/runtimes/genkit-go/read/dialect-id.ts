/** The genkit Go dialect's id: named in scenarios (`runtime`), Graph JSON and the wire contract. */
export const GENKIT_GO_DIALECT_ID = 'genkit-go';
