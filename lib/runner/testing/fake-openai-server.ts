import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible server on loopback (node:http), for tests of the real client paths:
 * `@genkit-ai/compat-oai` (the `openai` client) and `@ai-sdk/openai-compatible` send real HTTP
 * with real JSON, and parse its tool calls themselves. `GET /v1/models` lists `models`;
 * `POST /v1/chat/completions` answers what `reply` says for the request (non-streaming, or as
 * server-sent chunks when the request has `stream: true`).
 */

/** One tool call the fake model makes. `arguments` is sent as given when it is a string (malformed JSON on purpose). */
export interface FakeToolCall {
  name: string;
  arguments: string | Record<string, unknown>;
  id?: string;
}

export type FakeReply = { text?: string; toolCalls?: FakeToolCall[] } | { status: number; body: string };

/** What a chat completion request carried, as the fake saw it. */
export interface FakeChatRequest {
  model: string;
  messages: { role: string; content?: unknown; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; parameters?: unknown } }[];
  stream?: boolean;
  authorization?: string;
}

export interface FakeOpenAiServer {
  /** The API root the clients get as base URL: `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  /** Every chat completion request, in order. */
  chatRequests: FakeChatRequest[];
  /** How many `GET /models` were answered. */
  modelListings: number;
  close(): Promise<void>;
}

/** The reply for turn N: N is the number of assistant messages already in the request, as the scripted models count. */
export function turnScript(turns: FakeReply[]): (request: FakeChatRequest) => FakeReply {
  return (request) => {
    const turn = request.messages.filter((message) => message.role === 'assistant').length;
    return turns[turn] ?? { text: `(the fake has no turn ${turn + 1})` };
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

let callCounter = 0;

function completionOf({ reply, model }: { reply: { text?: string; toolCalls?: FakeToolCall[] }; model: string }) {
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? `call_${++callCounter}`,
    type: 'function' as const,
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }));
  return {
    id: `chatcmpl-${++callCounter}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.text ?? null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
  };
}

/** The completion as the streaming API sends it: one delta with everything, the finish reason, then `[DONE]`. */
function writeStream({ response, completion }: { response: ServerResponse; completion: ReturnType<typeof completionOf> }): void {
  response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const [choice] = completion.choices;
  const base = { id: completion.id, object: 'chat.completion.chunk', created: completion.created, model: completion.model };
  const toolCalls = choice.message.tool_calls?.map((call, index) => ({ index, ...call }));
  const delta = { role: 'assistant', ...(choice.message.content !== null ? { content: choice.message.content } : {}), ...(toolCalls ? { tool_calls: toolCalls } : {}) };
  response.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
  response.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: choice.finish_reason }], usage: completion.usage })}\n\n`);
  response.end('data: [DONE]\n\n');
}

/** Starts the fake on 127.0.0.1 (a free port). With `apiKey`, a request without `Authorization: Bearer <apiKey>` gets 401. */
export async function startFakeOpenAiServer(options: { models: string[]; reply: (request: FakeChatRequest) => FakeReply; apiKey?: string }): Promise<FakeOpenAiServer> {
  const chatRequests: FakeChatRequest[] = [];
  let modelListings = 0;
  const server = createServer(async (request, response) => {
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return json(401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method === 'GET' && url.pathname === '/v1/models') {
      modelListings += 1;
      return json(200, { object: 'list', data: options.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })) });
    }
    if (request.method === 'POST' && url.pathname === '/v1/chat/completions') {
      const body = JSON.parse(await readBody(request)) as FakeChatRequest;
      chatRequests.push({ ...body, authorization: request.headers.authorization });
      const reply = options.reply(body);
      if ('status' in reply) return json(reply.status, reply.body);
      const completion = completionOf({ reply, model: body.model });
      if (body.stream) return writeStream({ response, completion });
      return json(200, completion);
    }
    json(404, { error: { message: `The fake has no ${request.method} ${url.pathname}.` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    chatRequests,
    get modelListings() {
      return modelListings;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The model id whose first answer is a tool call with malformed arguments JSON. */
export const BROKEN_JSON_MODEL = 'broken-json';

/** The model id the fake refuses with a 500 and a body with markup in it (shown as data, never as HTML). */
export const FAILING_MODEL = 'failing-model';

/** First-turn tool calls for the shipped scenarios' tools (genkit and AI SDK use the same names). */
const FIRST_CALLS: { when: string[]; calls: FakeToolCall[] }[] = [
  { when: ['getWeather', 'convertTemperature'], calls: [{ name: 'getWeather', arguments: { city: 'Lisbon' } }, { name: 'convertTemperature', arguments: { celsius: 24 } }] },
  { when: ['askUser'], calls: [{ name: 'askUser', arguments: { question: 'Window or aisle?', choices: ['Window', 'Aisle'] } }] },
  { when: ['transferMoney'], calls: [{ name: 'transferMoney', arguments: { to: 'Bob', amountUsd: 500 } }] },
];

/**
 * How the fake plays the shipped scenarios, as a real model would: the first answer calls the
 * scenario's tools (by the tools the request offers), the next one answers in text quoting what
 * the last tool message said — so a test sees that the tools ran and their output reached the
 * model. The `broken-json` model's first tool call has arguments that are not JSON.
 */
export function scenarioReplies(request: FakeChatRequest): FakeReply {
  if (request.model === FAILING_MODEL) return { status: 500, body: '{"error":{"message":"model <b>down</b>","type":"server_error"}}' };
  const offered = new Set((request.tools ?? []).map((tool) => tool.function.name));
  const turn = request.messages.filter((message) => message.role === 'assistant').length;
  if (turn === 0) {
    const first = FIRST_CALLS.find((candidate) => candidate.when.every((name) => offered.has(name)));
    if (!first) return { text: 'No tool for this.' };
    if (request.model === BROKEN_JSON_MODEL) return { toolCalls: [{ name: first.calls[0].name, arguments: '{"city": "Lis' }] };
    return { toolCalls: first.calls };
  }
  const lastTool = request.messages.filter((message) => message.role === 'tool').at(-1);
  return { text: `The tools said: ${typeof lastTool?.content === 'string' ? lastTool.content : JSON.stringify(lastTool?.content ?? null)}` };
}
