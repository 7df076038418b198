/** The Mastra dialect's id: named in Graph JSON (`runtime`), the trace list and the resume workbench. */
export const MASTRA_DIALECT_ID = 'mastra';
