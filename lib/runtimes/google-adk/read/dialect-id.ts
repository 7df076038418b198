/** Google ADK's dialect id: in Graph JSON (`runtime`), span views and the trace list. */
export const GOOGLE_ADK_DIALECT_ID = 'google-adk';
