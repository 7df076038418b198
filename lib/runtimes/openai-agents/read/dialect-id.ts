/** The OpenAI Agents SDK dialect's id: in Graph JSON (`runtime`), span views and the trace list. */
export const OPENAI_AGENTS_DIALECT_ID = 'openai-agents';
