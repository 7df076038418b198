/** The one encoder of recorded data into generated code lives with the trace layer (a resume snippet uses it too). */
export { codeLiteral } from '../spans/code-literal';
