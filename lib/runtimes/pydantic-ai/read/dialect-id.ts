/** The Pydantic AI dialect's id: in Graph JSON (`runtime`), span views and the trace list. */
export const PYDANTIC_AI_DIALECT_ID = 'pydantic-ai';
