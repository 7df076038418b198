/** The generic OTel GenAI reader's id: in Graph JSON (`runtime`), span views and the trace list. */
export const OTEL_GENAI_DIALECT_ID = 'otel-genai';
