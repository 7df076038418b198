/**
 * What one framework records where: the "flavor" the shared GenAI-loop reader
 * (read-loop-call.ts) is given, so that every framework that records a tool loop as agent /
 * model / tool spans — the OTel GenAI conventions (Google ADK, LangGraph through
 * opentelemetry-instrumentation-langchain, Pydantic AI, …) or OpenInference (LangGraph through
 * openinference-instrumentation-langchain) — is read by one reader and keeps its own words.
 * docs/adr/0012-framework-dialects.md says why; a framework's folder
 * (lib/runtimes/<framework>/read/) holds its flavor, its pause and answer evidence, its words and its
 * resume rules, and registers `loopDialect(flavor)` in lib/runtimes/index.ts.
 *
 * A flavor answers, per span: which kind of span it is (`kindOf`), its messages
 * (`messagesOf`: input, output, finish reasons, model, offered tools — from attributes, span
 * events or flattened keys), a tool span's fields (`toolOf`: name, call id, input, output), and
 * whether the span is a pause (`pauseOf`). Per call: pauses recorded on other spans
 * (`pausesOfCall`), the answers a call gives an earlier run (`readAnswers`), what ties the two
 * runs (`linkScope`), and what linking shows (`afterLinking`).
 */
import type { ConversationView } from '../../contract/conversation-view';
import type { Span } from '../../spans/span';
import type { SpanOutcome } from '../../spans/span-classification';
import type { GenerateCall, InterruptInfo, Resolution, RuntimeState, ToolCall, ToolRequestData } from '../../loop/loop-model';
import type { ClaimedBy, DialectExplanations, SpanValues } from '../../loop/runtime-dialect';
import type { ResumeRules } from '../../loop/resume-model';
import type { SpanIndex } from '../../loop/span-index';
import type { GenAiMessage, ReadMessages } from '../otel-genai/read/genai-messages';
import type { OfferedTool } from '../otel-genai/read/genai-tool-definitions';

/** A span's part in the loop: a top-level call (an agent run), a model call, a tool call, a workflow around calls, or none. */
export type LoopSpanKind = 'call' | 'model' | 'tool' | 'flow' | 'other';

/** The messages of a call or model span, in the OTel GenAI conventions' shapes whatever the framework recorded. */
export interface LoopMessages {
  input: ReadMessages;
  output: ReadMessages;
  /** The finish reasons, as the framework wrote them (`stop`, `tool_call`, `tool_calls`, `STOP`). */
  finishReasons: string[];
  model?: string;
  /** The tools a model call was offered, when recorded. */
  tools?: Map<string, OfferedTool>;
}

/** A tool span's fields. */
export interface LoopTool {
  name: string;
  /** The model's tool call id, when the span records it (or the flavor finds it nearby). */
  callId?: string;
  /** The framework's kind of tool (`gen_ai.tool.type`: ADK's `FunctionTool`, `LongRunningFunctionTool`). */
  type?: string;
  /** The input, parsed. */
  input?: unknown;
  /** The output as the model got it, parsed. */
  output?: unknown;
}

/** A pause as a framework records it: its own word for it, what it carried, where it was seen. */
export interface LoopPause {
  /** `approval required (require_confirmation)`, `interrupt`, `long-running`: shown as `paused: <words>`. */
  pausedAs: string;
  /** What the pause carried (the interrupt's value, the confirmation's hint), or `true`. */
  metadata: unknown;
  evidence: InterruptInfo['evidence'];
  /** The framework's id of the pause when it is not the tool call id (LangGraph's interrupt id). */
  pauseId?: string;
  /** The JSON schema an answer must satisfy, when the framework recorded one (LangGraph's `response_schema`). */
  answerSchema?: unknown;
}

/** A pause recorded on a span that is not the tool's (LangGraph's review node), with the tool call it holds. */
export interface CallPause extends LoopPause {
  /** The tool call id it names, when it names one. */
  callId?: string;
  /**
   * The call it holds, for a pause that may hold a call no model call of this run asked for
   * (Mastra: a run that answers one approval and pauses on the next call of the paused run's
   * model call). Such a pause, left over once each request took its own, is a paused call of the
   * run, beside the tools it ran before its first model call. Without it a left-over pause is dropped.
   */
  request?: ToolRequestData;
}

/** The framework's words for what the reader finds, beyond the loop model's statuses. */
export interface LoopWords {
  /** A failed tool whose error the framework gave the model, the loop going on. */
  toolError: RuntimeState;
  /** A requested call no tool span ran, left waiting when the call ended (no framework evidence says more). */
  notExecuted: LoopPause;
  /** A requested call that never ran because the call failed first. */
  neverRan?: RuntimeState;
  /** How a tool span that ran again in an answering call resolved its paused call. */
  ranAgain: string;
  /** How a tool result that reached the model without a tool span resolved its paused call. */
  answeredWithoutSpan: string;
  /**
   * A requested call no tool span ran whose result reached the next model call of the same run
   * (answered inside the run: Pydantic AI's `HandleDeferredToolCalls` handler). Absent: such a
   * call reads as one that never ran.
   */
  answeredInRun?: RuntimeState;
}

/** What an answering call shows: the history it started from, the answers in it, the tools it ran before its first model call. */
export interface AnswerEvidence {
  index: SpanIndex;
  root: Span;
  generateId: string;
  /** The history the call started from: its recorded input, else its first model call's. */
  history: GenAiMessage[];
  /** The assistant message with tool calls the history's trailing tool results answer, and those results by call id. */
  answered?: { assistant: GenAiMessage; position: number; responses: Map<string, unknown> };
  /** Tool spans the call ran before its first model call (the paused calls run again). */
  resumeToolCalls: ToolCall[];
  /** The tools its first model call was offered. */
  tools?: Map<string, OfferedTool>;
  /** The call's error, when it failed. */
  failedWith?: string;
}

/** A link scope in two parts: the paused call's (its interrupted key) and the answering call's (its resume key). */
export interface LinkScopeParts {
  interrupted?: string;
  answering?: string;
}

export interface LoopFlavor {
  /** The dialect id (`google-adk`). */
  id: string;
  /** For people (`Google ADK`). */
  title: string;
  explains: DialectExplanations;
  claimedBy: ClaimedBy;
  /** True for the spans this framework records (asked only of spans `claimedBy` lets through). */
  claims(span: Span): boolean;
  kindOf(span: Span): LoopSpanKind;
  /**
   * A call span nested in another call's spans that is a run of its own, read as a top-level
   * call (Mastra records the run that answers a pause as a child of the paused run's
   * model_generation span). Default: a call nested in a call is part of it.
   */
  ownCall?(span: Span): boolean;
  /** The span's label (the tool's name, the model's); the span name when absent. */
  labelOf?(span: Span, kind: LoopSpanKind): string | undefined;
  /**
   * The span's messages. `index` is given where the reader has one (every call but the
   * conversation view's): a framework that keeps a model call's data on its child spans (Mastra:
   * the finish reason and model on the step's inference span) reads them there.
   */
  messagesOf(span: Span, index?: SpanIndex): LoopMessages;
  /** A model call's model, where its span's label does not name it (Mastra: a step's model is on its inference span, read into `view.model`). Default: the span's label. */
  modelNameOf?(step: { span: Span; view: LoopMessages }): string | undefined;
  toolOf(span: Span, index?: SpanIndex): LoopTool;
  /** The span is a pause, not a result or an error (LangGraph's `GraphInterrupt`, ADK's confirmation placeholder). */
  pauseOf?(span: Span): LoopPause | undefined;
  /** The span's outcome, where the framework records it otherwise than OTel's status (a pause is never an error). */
  outcomeOf?(span: Span, outcome: SpanOutcome): SpanOutcome;
  /** A failed span's error in the framework's words, where its status message says it otherwise (OpenInference appends the traceback). */
  errorMessageOf?(span: Span): string | undefined;
  /** Pauses recorded on spans of the call that are no tool span (LangGraph's review node), each naming the call it holds. */
  pausesOfCall?(options: { index: SpanIndex; root: Span; spans: readonly Span[] }): CallPause[];
  /** Adds the framework's facts to a tool call read from its span (LangGraph: the tool it wraps ran). */
  decorateTool?(options: { call: ToolCall; span: Span; index: SpanIndex }): void;
  /** The answers this call gives the pauses of an earlier run; undefined when it answers none. Default: `readLoopAnswers`. */
  readAnswers?(evidence: AnswerEvidence): Resolution[] | undefined;
  /**
   * What ties a paused call and the call that answers it besides the tool call ids: ADK's
   * invocation id, LangGraph's thread id. Becomes the link key's requests part. Two parts when a
   * call's pause and its answer are tied by different things (Mastra: the run id and the call it
   * paused on; the run id and the call it answers — one run may do both).
   */
  linkScope?(options: { index: SpanIndex; root: Span; models: readonly Span[] }): string | LinkScopeParts | undefined;
  /** Calls whose spans do not show a pause may still have paused (ADK's `request_confirmation`): give every call a silent key. */
  silentPauses?: boolean;
  /**
   * What the framework's spans show about a call that the loop model does not (a pause recorded
   * in a form that could not be read, spans the framework never ended), in words: the call's notes.
   */
  notesOf?(options: { index: SpanIndex; root: Span; call: GenerateCall }): string[];
  /** What linking shows (the pause only an answer reveals; which pause an answer named by id). */
  afterLinking?(generates: readonly GenerateCall[]): void;
  /** The values of a span for the detail panel, where the framework keeps them elsewhere than the conventions. */
  spanValues?(span: Span, kind: LoopSpanKind): SpanValues | undefined;
  /** A call or model span's conversation, where the framework's messages need its own markers. */
  conversationOf?(span: Span): ConversationView | undefined;
  words: LoopWords;
  /** How its pauses are answered (the framework's rules), if Loopscope checks them. */
  resume?: ResumeRules;
}
