/** The Strands Agents dialect's id: named in Graph JSON (`runtime`), the trace list and the resume workbench. */
export const STRANDS_DIALECT_ID = 'strands';
