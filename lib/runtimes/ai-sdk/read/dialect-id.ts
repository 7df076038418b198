/** The AI SDK dialect's id: named in scenarios (`runtime`), Graph JSON and the wire contract. */
export const AI_SDK_DIALECT_ID = 'ai-sdk';
