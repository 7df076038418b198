/**
 * The seam between runtimes and everything else: what one runtime's adapter (a dialect) must
 * know so that Loopscope can draw, link and answer its tool loops. A dialect lives in one
 * folder (lib/runtimes/<runtime>/) with everything about its runtime — attribute names,
 * message parts, how a call and a resume are read, the link keys, resume rules, known bugs —
 * and is registered with one line in lib/runtimes/index.ts (`DIALECTS`). Graph elements,
 * linking, collapsing, layout and components never name a runtime.
 * docs/contributing/add-a-runtime.md says how to add one.
 */
import type { ConversationView } from '../contract/conversation-view';
import type { AttributeValue, Span } from '../spans/span';
import type { InterruptedGenerateKey, ResumeGenerateKey } from '../spans/trace-link-keys';
import type { GenerateCall, ResolutionKind, ToolCall, ToolCallById } from './loop-model';
import type { ResumeRules } from './resume-model';
import type { RuntimeView } from './runtime-view';
import type { SpanClassification } from '../spans/span-classification';
import type { SpanIndex } from './span-index';

/** One top-level call as a dialect read it, with the keys that link it to other calls (lib/graph/match-resumes.ts). */
export interface ReadCall {
  call: GenerateCall;
  /** Present when the call ended waiting for answers (an interrupt; an approval in other runtimes). */
  interrupted?: InterruptedGenerateKey;
  /** Present when the call answers an earlier one (genkit: it was called with `resume`). */
  resume?: ResumeGenerateKey;
}

/** What went in and came out of a span, as the runtime recorded it (raw attribute values; the reader parses). */
export interface SpanValues {
  input?: AttributeValue;
  output?: AttributeValue;
  /** An interrupted tool's interrupt metadata. */
  interruptMetadata?: AttributeValue;
  /** A restarted tool's resumed metadata. */
  resumedMetadata?: AttributeValue;
  /** The attributes these were read from (a detail view shows them apart). */
  attributeKeys: string[];
}

/**
 * How Loopscope ends a span that started and never ended: `failed` when the process that ran it
 * died (or the run ended around it, as past a tool's time limit), `stopped` when the user
 * stopped the run while it ran. `message` is why, in words (the span's status message).
 */
export interface OpenSpanEnding {
  kind: 'failed' | 'stopped';
  message: string;
}

/** What ends an open span in its runtime's own shape: the attributes to set, and the error status. */
export interface OpenSpanClosing {
  attributes: Record<string, AttributeValue>;
  status: { code: 2; message: string };
}

/** The tool an open span executes: its name and the request it answers, when the span says. */
export interface RunningTool {
  name: string;
  ref?: string;
}

/** How a runtime's pauses and answers read for people: the detail panel's sentences, in the runtime's own terms. */
export interface DialectExplanations {
  /** What a paused tool call is in this runtime (genkit: an interrupt recorded as an error that is not one). */
  pause: string;
  /** What each kind of answer did. */
  resolutions: Record<ResolutionKind, string>;
  /** How an app of this runtime sends its spans to Loopscope (an empty graph says it). */
  sendSpans: string;
}

/**
 * Which spans a dialect may claim, cheaply: a span is offered to the dialect's `claims` only
 * when its instrumentation scope, one of its attributes or its name is listed here (a dialect
 * without `claimedBy` is asked about every span). Lets the dispatch skip dialects that cannot
 * claim a span without parsing anything.
 */
export interface ClaimedBy {
  /** Instrumentation scope names (`gcp.vertex.agent`). */
  scopes?: readonly string[];
  /** Attribute keys, any one present (`gen_ai.operation.name`). */
  attributes?: readonly string[];
  /** Span names. */
  spanNames?: readonly string[];
}

export interface RuntimeDialect {
  /** `genkit-js`: named in scenarios, Graph JSON and the wire contract. */
  readonly id: string;
  /** For people: `genkit JS`. */
  readonly title: string;
  /** Its pauses and answers in words (the detail panel's sentences). */
  readonly explains: DialectExplanations;
  /** What the pages say and offer for its runs (banners, hints, which controls apply). */
  readonly view?: RuntimeView;
  /**
   * What every span `claims` accepts carries — one of these instrumentation scope names,
   * attributes (present, whatever their value) or span names — so the dispatcher
   * (dialect-dispatch.ts) asks `claims` only of the runtimes a span may belong to. Absent: it is
   * asked of every span. A span `claims` accepts without any of them would go unclaimed.
   */
  readonly claimedBy?: ClaimedBy;
  /** True for the spans this runtime records (the first dialect that claims a span reads it). */
  claims(span: Span): boolean;
  /**
   * What a claimed span is in the loop model. `index`: the build's, when classified in one — what
   * the classification parses of the span is kept there (`SpanIndex.memo`) for the call reader.
   */
  classify(span: Span, index?: SpanIndex): SpanClassification;
  /**
   * True when the span — a call's span or a tool's — runs inside a top-level call (a later
   * turn of a call is nested in the previous one; a tool runs inside its call), also when the
   * parent chain is broken and only the span's own attributes can tell.
   */
  enclosedByCall(index: SpanIndex, span: Span): boolean;
  /** Reads one top-level call from its span: turns, model calls, tool calls, the resume it makes, what it leaves pending. */
  readCall(options: { index: SpanIndex; root: Span; flowSpanId?: string }): ReadCall;
  /** Reads a tool that ran on its own, outside any call. */
  readStandaloneTool(index: SpanIndex, span: Span): ToolCall;
  /** Adds what this runtime's known bugs show once every resume is tied to its interrupt (genkit 1.42 bug 3 shows only then); `toolCallById`: the build's one lookup of its calls' tool calls. */
  notesAfterLinking?(generates: readonly GenerateCall[], toolCallById: ToolCallById): void;
  /** A call span's conversation — the history it sent, what it received, each part typed and its markers named (the message view). */
  conversationOf?(span: Span): ConversationView | undefined;
  /** What went in and came out of a claimed span (`interrupted`: it ended in an interrupt). */
  spanValues(span: Span, interrupted: boolean): SpanValues;
  /** How a paused call of this runtime is answered: its context and the rules answers must keep. */
  resume?: ResumeRules;
  /**
   * For a span that has started and not ended (a runner's start notice, read as an open span):
   * the tool it executes — code from tools/ running now — or undefined when it executes none
   * (a call, a model, a tool the provider runs). A run with one open "has a running tool": its
   * runner is shared with no other run, a death message names the tool, Stop does not wait for it.
   */
  runningTool(span: Span): RunningTool | undefined;
  /**
   * The attributes and status that end an open span of this runtime that Loopscope has to end
   * itself (its runner died, its run was stopped), in the shape this runtime gives a span that
   * failed — so the closed span reads like the runtime's own, and draws as a failed step.
   */
  closeOpenSpan(span: Span, ending: OpenSpanEnding): OpenSpanClosing;
}
