/**
 * LangGraph's pauses as its instrumentations record them: `interrupt()` raises `GraphInterrupt`,
 * and both instrumentations keep it as an `exception` event on the span of the tool or node that
 * called it (opentelemetry-instrumentation-langchain also sets the span's status to ERROR;
 * OpenInference leaves it OK). The event's message is the Python repr of the interrupts:
 * `(Interrupt(value={…}, id='…', response_schema={…}),)` — the value, the interrupt id a
 * `Command(resume={id: …})` answers, and the schema LangGraph checks a resume value against.
 */
import { isObject } from '../../../spans/json-value';
import type { Span } from '../../../spans/span';
import { PYTHON_CLASS_KEY, readPythonRepr } from '../../python-values/python-repr';
import { GRAPH_INTERRUPT } from './langgraph-words';

export interface GraphInterruptInfo {
  /** What `interrupt(value)` was given, read from the repr (its text when it could not be read). */
  value: unknown;
  /** The interrupt id. */
  id?: string;
  /** `response_schema` as JSON schema, when the app gave `interrupt()` one. */
  responseSchema?: unknown;
}

const ID_IN_REPR = /\bid='([0-9a-f]{32})'/g;

/** The interrupts a span's `GraphInterrupt` exception event records, in order; empty when it has none. */
export function graphInterruptsOf(span: Span): GraphInterruptInfo[] {
  for (const event of span.events) {
    if (event.name !== 'exception') continue;
    const type = event.attributes['exception.type'];
    if (typeof type !== 'string' || !GRAPH_INTERRUPT.test(type)) continue;
    const message = event.attributes['exception.message'];
    const text = typeof message === 'string' ? message : '';
    const read = readPythonRepr(text);
    const items = read.ok ? (Array.isArray(read.value) ? read.value : [read.value]) : [];
    const interrupts = items.filter((item): item is Record<string, unknown> => isObject(item) && item[PYTHON_CLASS_KEY] === 'Interrupt');
    if (interrupts.length > 0) {
      return interrupts.map((item) => ({
        value: 'value' in item ? item.value : item.args,
        ...(typeof item.id === 'string' ? { id: item.id } : {}),
        ...(isObject(item.response_schema) ? { responseSchema: item.response_schema } : {}),
      }));
    }
    // A repr cut short (an attribute length limit) still names its ids.
    const ids = [...text.matchAll(ID_IN_REPR)].map((match) => match[1]);
    return ids.length > 0 ? ids.map((id) => ({ value: text, id })) : [{ value: text }];
  }
  return [];
}

/** True when the span records a `GraphInterrupt` (read without parsing the repr). */
export function hasGraphInterrupt(span: Span): boolean {
  return span.events.some((event) => event.name === 'exception' && typeof event.attributes['exception.type'] === 'string' && GRAPH_INTERRUPT.test(event.attributes['exception.type']));
}
