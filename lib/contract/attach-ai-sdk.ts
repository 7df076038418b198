/**
 * The AI SDK app door (issue 39, docs/adr/0013-ai-sdk-app-door.md): the wire between
 * `loopscope/ai-sdk` inside a developer's own app (lib/runtimes/ai-sdk/app-package) and the Loopscope
 * server. Unlike a genkit app, whose generate Loopscope starts, the app starts its own
 * `generateText` / `streamText`: each call asks the server to be a run (`start`), is stepped
 * through the step door as any attached run (lib/contract/attach-step.ts: hook / wait / ack),
 * says how it ended (`end`), and — when it stopped for an approval or a handed-back tool and the
 * app asks Loopscope for the answer — waits for the developer's answer from the workbench
 * (`answer`, then `answer-ack` once the app built its messages from it).
 *
 * Who may knock (docs/security-model.md): every request is refused with an Origin header (no web
 * page can send one without it); `hello` and `start` carry the app's credential — the app
 * secret `loopscope start -- <cmd>` puts in the app's environment, or Loopscope's API token the
 * developer passed on purpose; `end`, `answer` and `answer-ack` carry the run's own step token.
 */
import { z } from 'zod';
import { JsonValueSchema } from './json-value';
import { RunModeSchema } from './run-mode';

/** Where the app's door requests go: `<Loopscope's URL>/attach/ai-sdk/<op>`. */
export const AI_SDK_DOOR_PREFIX = '/attach/ai-sdk/';

/**
 * The environment the package reads. `loopscope start -- <cmd>` sets `url` and `secret` for the app
 * it starts; an app started otherwise may be given Loopscope's API token (`token`, printed in the
 * start banner) and, when it is not on the default port, the `url`.
 */
export const AI_SDK_APP_ENVIRONMENT = {
  url: 'LOOPSCOPE_URL',
  secret: 'LOOPSCOPE_APP_SECRET',
  token: 'LOOPSCOPE_TOKEN',
  /** The app's name on Loopscope's Apps page (default: the `name` of the package.json in its folder, else the folder's name). */
  name: 'LOOPSCOPE_APP_NAME',
} as const;

/** Where Loopscope listens when nobody said: `loopscope start`'s default port. */
export const DEFAULT_LOOPSCOPE_URL = 'http://127.0.0.1:4747';

const AppSchema = z.object({
  name: z.string().min(1).max(200),
  pid: z.number().int().positive().optional(),
});

/** `POST /attach/ai-sdk/hello`: the package is set up in an app (its Apps page entry appears before its first call). */
export const AiSdkHelloRequestSchema = z.object({ app: AppSchema });
export type AiSdkHelloRequest = z.infer<typeof AiSdkHelloRequestSchema>;
export const AiSdkHelloResponseSchema = z.object({ mode: RunModeSchema });

/** A tool the call offers, as the step panel and the answer rules need it: its JSON schemas, and whether it has `execute`. */
export const AiSdkAppToolSchema = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(10_000).optional(),
  inputSchema: JsonValueSchema.optional(),
  outputSchema: JsonValueSchema.optional(),
  /** No `execute`: the SDK hands its calls back to the caller, who answers with their result. */
  handedBack: z.boolean(),
  /** `needsApproval` is set: its calls may stop for an approval. */
  needsApproval: z.boolean().optional(),
});
export type AiSdkAppTool = z.infer<typeof AiSdkAppToolSchema>;

/** `POST /attach/ai-sdk/start`: a `generateText` / `streamText` call of the app begins. */
export const AiSdkStartRequestSchema = z.object({
  app: AppSchema,
  /** The runtime whose loop the call is, as the package names it (its dialect's id): the run's pages speak its words. */
  runtime: z.string().min(1).max(100),
  operation: z.enum(['generateText', 'streamText']),
  model: z.object({ provider: z.string().max(200), modelId: z.string().max(200) }),
  /** `telemetry.functionId`, when the call names itself. */
  functionId: z.string().max(200).optional(),
  tools: z.array(AiSdkAppToolSchema).max(200),
  /**
   * The call answers the calls a run of this app waits for (its messages hold the answer the app
   * got from `answerInLoopscope`): it goes on as that run, instead of a new one.
   */
  answers: z.object({ runId: z.string().min(1) }).optional(),
});
export type AiSdkStartRequest = z.infer<typeof AiSdkStartRequestSchema>;

/** The run the call is: its step token (step door, `end`, `answer`) and the mode it starts in. */
export const AiSdkStartResponseSchema = z.object({ runId: z.string(), token: z.string(), mode: RunModeSchema });
export type AiSdkStartResponse = z.infer<typeof AiSdkStartResponseSchema>;

/** A call the finished call left waiting: an approval to give, or a handed-back tool's result. */
export const AiSdkWaitingCallSchema = z.object({
  kind: z.enum(['approval', 'handed-back']),
  toolName: z.string().max(200),
  toolCallId: z.string().max(500),
  input: z.unknown(),
});

/** `POST /attach/ai-sdk/end`: the call ended — its outcome as the SDK returned it, or its failure. */
export const AiSdkEndRequestSchema = z.object({
  runId: z.string().min(1),
  /** The traces the call's spans went to (exported before this request). */
  traceIds: z.array(z.string().regex(/^[0-9a-f]{32}$/)).max(100),
  outcome: z
    .object({
      finishReason: z.string().max(100),
      text: z.string().max(1_000_000),
      waiting: z.array(AiSdkWaitingCallSchema).max(100),
    })
    .optional(),
  failure: z.object({ message: z.string().max(100_000), name: z.string().max(200).optional() }).optional(),
  /**
   * The app already asked for the answer (`answerInLoopscope`) when it told the end: the run is
   * waited for from its first moment, so a workbench opened at once offers to send the answer there.
   */
  appWaits: z.boolean().optional(),
});
export type AiSdkEndRequest = z.infer<typeof AiSdkEndRequestSchema>;

/** `POST /attach/ai-sdk/answer`: the app waits for the developer's answer to the calls its run left waiting. */
export const AiSdkAnswerWaitRequestSchema = z.object({ runId: z.string().min(1) });

const AnsweredCall = { toolName: z.string().min(1).max(200), toolCallId: z.string().min(1).max(500) };

/**
 * The developer's answer, checked by the AI SDK's rules in the workbench: per waiting call an
 * approve or deny (with the reason the model reads) or the result of a handed-back tool. The app
 * turns it into its next call's `tool` message with its own approval ids (the trace does not
 * record them).
 */
export const AiSdkAppAnswerSchema = z.object({
  approve: z.array(z.object({ ...AnsweredCall, reason: z.string().max(10_000).optional() })).max(100),
  deny: z.array(z.object({ ...AnsweredCall, reason: z.string().max(10_000).optional() })).max(100),
  respond: z.array(z.object({ ...AnsweredCall, output: JsonValueSchema })).max(100),
});
export type AiSdkAppAnswer = z.infer<typeof AiSdkAppAnswerSchema>;

/** The answer, or: ask again; or: no answer will come. */
export const AiSdkAnswerWaitResponseSchema = z.union([
  z.object({ answer: AiSdkAppAnswerSchema }),
  z.object({ waiting: z.literal(true) }),
  z.object({ stopped: z.string() }),
]);
export type AiSdkAnswerWaitResponse = z.infer<typeof AiSdkAnswerWaitResponseSchema>;

/** `POST /attach/ai-sdk/answer-ack`: the app built its messages from the answer (no problems), or could not (the workbench is told). */
export const AiSdkAnswerAckRequestSchema = z.object({ runId: z.string().min(1), problems: z.array(z.string().max(2_000)).max(100) });
export type AiSdkAnswerAckRequest = z.infer<typeof AiSdkAnswerAckRequestSchema>;

/** An AI SDK app as the Apps page lists it (`GET /api/runtimes` → `aiSdkApps`). */
export const AiSdkAppViewSchema = z.object({
  name: z.string(),
  pid: z.number().optional(),
  /** Milliseconds since the epoch: its last request. */
  lastSeen: z.number(),
  /** The mode its next calls start in. */
  mode: RunModeSchema,
  /** The tools its calls offered so far (what breakpoints can name). */
  tools: z.array(z.string()),
  /** Its latest runs, newest first. */
  runs: z.array(z.object({ runId: z.string(), label: z.string(), status: z.string(), startedAt: z.number() })),
});
export type AiSdkAppView = z.infer<typeof AiSdkAppViewSchema>;

/** `POST /api/runtimes/ai-sdk-mode`: the mode an AI SDK app's next calls start in. */
export const AiSdkModeRequestSchema = z.object({ name: z.string().min(1).max(200), mode: RunModeSchema });
export type AiSdkModeRequest = z.infer<typeof AiSdkModeRequestSchema>;
