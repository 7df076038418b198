/** The id of the genkit JS dialect (runtime names in scenarios, Graph JSON, the contract). */
export const GENKIT_DIALECT_ID = 'genkit-js';
