/**
 * The loop model every dialect reads its runtime's spans into, and everything after the seam
 * (graph, linking, layout, resume, replay) works on: top-level calls, their model turns, tool
 * calls with their outcome, interrupts and the resumes that answered them. Runtime-free: a
 * dialect (lib/runtimes/<runtime>/read/) maps its runtime's words onto these (genkit's generate call,
 * the AI SDK's agent invocation, …). Plain data; part of Graph JSON (`generates`).
 */

/** A tool request as the model made it. */
export interface ToolRequestData {
  name: string;
  ref?: string;
  input?: unknown;
}

/**
 * How an interrupted (or parked) request was resolved by a resume:
 * `respond` — a hand-written answer, the tool did not run again;
 * `restart` — the tool ran again (with `ctx.resumed`);
 * `pending` — its output was parked as pendingOutput and reused, not re-run;
 * `unresolved` — the resume left it unanswered (genkit fails with INVALID_ARGUMENT).
 */
export type ResolutionKind = 'respond' | 'restart' | 'pending' | 'unresolved';

export interface InterruptInfo {
  /** The metadata passed to `interrupt()`, or `true` when none was given. */
  metadata: unknown;
  /**
   * Where the interrupt was seen: genkit's span attribute, only the exception event, only the
   * output message, the tool's recorded result (Google ADK's confirmation placeholder), or only
   * the answer that a later call gave it (the paused call's own spans do not say it paused).
   */
  evidence: 'attribute' | 'exception' | 'message' | 'result' | 'answer';
  /** The runtime's own word for this kind of pause (`approval required`, `interrupt`, `long-running`), shown as `paused: <words>`. */
  pausedAs?: string;
  /** The id the runtime answers this pause by, when it is not the tool call id (LangGraph's interrupt id): an answer naming it is tied to this call. */
  pauseId?: string;
  /** Raised by a hook that wraps the tool (genkit Go's ToolApproval), not by the tool itself: the hook, and how that is known. */
  heldBy?: { by: string; evidence: string };
}

export type ToolCallStatus = 'ok' | 'interrupted' | 'error' | 'running' | 'not-run';

/**
 * The runtime's own word for how a call ended, where the loop model's status says less (the AI
 * SDK's `NoSuchToolError`, `denied`, `provider-executed`, a step limit: docs/interrupt-model.md),
 * and the phrase the graph shows for it.
 */
export interface RuntimeState {
  code: string;
  words: string;
}

export interface ToolCall {
  /** Graph node id. */
  id: string;
  traceId: string;
  /** Absent when the model asked for the tool but no tool span exists (unknown tool, never ran). */
  spanId?: string;
  name: string;
  ref?: string;
  input?: unknown;
  output?: unknown;
  status: ToolCallStatus;
  /** Run by a resume's restart (`genkit:metadata:resumed`). */
  restarted: boolean;
  /** Answered by hand at a Loopscope pause: the tool itself did not run. */
  answeredByHand?: boolean;
  resumedMetadata?: unknown;
  interrupt?: InterruptInfo;
  /** Finished in a turn where a sibling interrupted: its output was parked as pendingOutput. */
  parked: boolean;
  errorMessage?: string;
  /** The resumes that resolved this interrupted or parked call (several: alternative answers, side by side). */
  resolvedBy: { generateId: string; kind: ResolutionKind; nodeId: string }[];
  /** Known runtime misbehaviours this call shows (a tool run on its own), in words. */
  notes?: string[];
  /** The runtime's own word for how it ended (absent where the status says it all). */
  runtimeState?: RuntimeState;
  /**
   * It failed or did not run, and the runtime gave the model the error (or the denial) as the
   * call's result: the loop went on (the AI SDK's `tool-error`; genkit fails the whole call instead).
   */
  loopWentOn?: true;
}

export interface ModelCall {
  id: string;
  traceId: string;
  spanId: string;
  model: string;
  status: 'ok' | 'error' | 'running';
  /** Tool requests in the model's answer. */
  toolRequests: ToolRequestData[];
  text?: string;
  finishReason?: string;
  errorMessage?: string;
  /** The answer was written by hand at a Loopscope pause (recorded as a model call of its own). */
  handWritten?: true;
}

export interface Turn {
  index: number;
  /** The (nested) generate span of this turn. */
  generateSpanId: string;
  model?: ModelCall;
  toolCalls: ToolCall[];
}

/** One answer in a resume: the request it resolves and how. */
export interface Resolution {
  /** Graph node id of the resolution node. */
  id: string;
  kind: ResolutionKind;
  request: ToolRequestData;
  /** respond: the hand-written output; pending: the reused output. */
  output?: unknown;
  /** restart: the resumed metadata. */
  resumed?: unknown;
  /** restart with replaceInput: the new input (genkit 1.42 does not amend history: bug 2). */
  replacedInput?: unknown;
  /** The tool call that ran because of this restart, if it has a span. */
  restartedToolCallId?: string;
  /** The interrupted/parked tool call it answers, when that generate is loaded. */
  answersToolCallId?: string;
  /** The runtime's words for this answer (the AI SDK's `approved`, `denied: <reason>`), shown instead of respond / restart. */
  words?: string;
  /** The pause it answers, by the runtime's id for it (`InterruptInfo.pauseId`: LangGraph's interrupt id), when the answer names it so. */
  pauseId?: string;
}

export interface GenerateCall {
  /** Graph node id (also `${traceId}:${spanId}`). */
  id: string;
  traceId: string;
  spanId: string;
  /** The flow span that holds this generate, if any. */
  flowSpanId?: string;
  /** Milliseconds since the epoch. */
  startTime: number;
  endTime?: number;
  status: 'ok' | 'interrupted' | 'error' | 'running';
  /** The dialect that read this call (`genkit-js`, `ai-sdk`): pages look up its words (`RuntimeDialect.explains`). Set by the graph builder. */
  runtime?: string;
  finishReason?: string;
  errorMessage?: string;
  /** genkit's status name in the error message (NOT_FOUND, ABORTED, INVALID_ARGUMENT, …). */
  errorStatus?: string;
  model?: string;
  turns: Turn[];
  /** Tools run by this generate's resume (restarts), before its first model turn. */
  resumeToolCalls: ToolCall[];
  /** Present when this generate was called with `resume`. */
  resume?: {
    resolutions: Resolution[];
    /** The interrupted generate it answers, when that generate is loaded (see match-resumes.ts). */
    answersGenerateId?: string;
    /** How that was decided: an OTel span link, the whole history, or only the interrupted requests. */
    evidence?: 'link' | 'history' | 'requests';
    /** Other interrupted generates the same content could answer (the nearest few; perhaps not loaded): the link is a guess. */
    couldAlsoAnswer?: string[];
    /** How many other interrupted generates it could answer in all. */
    alternatives?: number;
  };
  /** Tool requests still interrupted in this generate's final message. */
  pendingInterrupts: ToolRequestData[];
  /** The model's final text (finishReason stop). */
  text?: string;
  /** Known runtime misbehaviours this call shows (genkit 1.42's resume bugs: docs/interrupt-model.md §7), in words. */
  notes: string[];
  /** The runtime's own word for how the call ended, where status and finishReason say less (the AI SDK's step limit). */
  runtimeState?: RuntimeState;
}

/** How a call answers an earlier one: its resolutions and which call it continues (the graph's linking decides). */
export type GenerateResume = NonNullable<GenerateCall['resume']>;

/** `name#ref` (or `name` without a ref): how a tool request is named on the graph, in the CLI and in genkit's own messages. */
export function requestLabel(request: { name: string; ref?: string }): string {
  return request.ref ? `${request.name}#${request.ref}` : request.name;
}

/** A tool call of a build's turns by its id (of two that share an id, the later). */
export type ToolCallById = (id: string) => ToolCall | undefined;

/**
 * The lookup the dialects' notes after linking share: their map of the calls' turns' tool calls
 * is made once, on the first ask (a build without answers never asks).
 */
export function toolCallLookup(generates: readonly GenerateCall[]): ToolCallById {
  let calls: Map<string, ToolCall> | undefined;
  return (id) => {
    if (!calls) {
      calls = new Map();
      for (const generate of generates) for (const turn of generate.turns) for (const call of turn.toolCalls) calls.set(call.id, call);
    }
    return calls.get(id);
  };
}
