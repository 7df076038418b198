/** LangGraph's dialect id: in Graph JSON (`runtime`), span views and the trace list. */
export const LANGGRAPH_DIALECT_ID = 'langgraph';
