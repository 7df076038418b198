/**
 * A developer's own Vercel AI SDK app in a project without genkit, as plain JavaScript run by
 * plain node, with Loopscope's lines from the installed package (`loopscope/ai-sdk`): the package
 * test's AI SDK app (lib/install/testing/packed-project.ts copies it into a fresh project). The
 * same agent as examples/apps/ai-sdk/trip-agent.ts: an offline model that asks for the weather in
 * the city of the request, then books the trip (a tool that needs an approval, asked in Loopscope
 * with `answerInLoopscope`), then answers with what the tools returned. `POST /trip {"request"}`
 * runs it and answers `{ text, calls }` (EXAMPLE_PORT).
 */
import http from 'node:http';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { z } from 'zod';
import { answerInLoopscope, loopscopeStep, loopscopeTelemetry, loopscopeTools } from 'loopscope/ai-sdk';

// Loopscope: spans to Loopscope, each call a run there.
const telemetry = loopscopeTelemetry();

/** The tool results so far, newest last (a denied call reads `{ denied, reason }`). */
function toolOutputs(prompt) {
  const outputs = [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const value = part.output.type === 'execution-denied' ? { denied: true, reason: part.output.reason } : part.output.value;
      outputs.push({ toolName: part.toolName, value });
    }
  }
  return outputs;
}

function nextAnswer(prompt) {
  const user = prompt.find((message) => message.role === 'user');
  const request = user.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
  const city = /\bto ([A-Z][\w-]*)/.exec(request)?.[1] ?? 'Lisbon';
  const nights = Number(/(\d+) nights?/.exec(request)?.[1] ?? 2);
  const outputs = toolOutputs(prompt);
  const weather = outputs.findLast((output) => output.toolName === 'getWeather')?.value;
  const booking = outputs.findLast((output) => output.toolName === 'bookTrip')?.value;
  if (!weather) return [{ type: 'tool-call', toolCallId: 'weather-1', toolName: 'getWeather', input: JSON.stringify({ city }) }];
  if (!booking) return [{ type: 'tool-call', toolCallId: 'book-1', toolName: 'bookTrip', input: JSON.stringify({ city: weather.city, nights }) }];
  const forecast = `${weather.city} is ${weather.tempC}°C`;
  return [{ type: 'text', text: booking.denied ? `Not booked (${booking.reason ?? 'denied'}); ${forecast}.` : `Booked ${booking.reference}: ${forecast}.` }];
}

const NO_USAGE = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };

/** The offline model (a LanguageModelV4 written by hand: no provider, no API key). */
const tripModel = {
  specificationVersion: 'v4',
  provider: 'trip-app',
  modelId: 'trip-model',
  supportedUrls: {},
  doGenerate: async (options) => {
    const content = nextAnswer(options.prompt);
    const calls = content.some((part) => part.type === 'tool-call');
    return { content, finishReason: calls ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' }, usage: NO_USAGE, warnings: [] };
  },
};

const tools = loopscopeTools({
  getWeather: tool({
    description: 'The weather in a city.',
    inputSchema: z.object({ city: z.string().min(1) }),
    execute: async ({ city }) => ({ city, tempC: 10 + city.length }),
  }),
  bookTrip: tool({
    description: 'Books the trip; a human approves it first.',
    inputSchema: z.object({ city: z.string().min(1), nights: z.number().int().min(1) }),
    needsApproval: true,
    execute: async ({ city, nights }) => ({ reference: `BK-${city.toUpperCase()}-${nights}` }),
  }),
});
// Loopscope: the model and the tools pause where Loopscope's run page says.
const model = wrapLanguageModel({ model: tripModel, middleware: loopscopeStep() });

async function planTrip(request) {
  const messages = [{ role: 'user', content: request }];
  for (let calls = 1; ; calls += 1) {
    const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(6) });
    messages.push(...result.responseMessages);
    // Loopscope: the developer approves or denies bookTrip in the workbench.
    const answer = await answerInLoopscope(result);
    if (answer.length === 0) return { text: result.text, calls };
    messages.push(...answer);
  }
}

const server = http.createServer(async (request, response) => {
  if (request.method !== 'POST' || request.url !== '/trip') return response.writeHead(404).end();
  try {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const { text, calls } = await planTrip(JSON.parse(Buffer.concat(chunks).toString('utf8')).request);
    console.log(`trip-app answered (${calls} call(s)): ${text}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text, calls }));
  } catch (error) {
    console.error(`trip-app failed: ${error.message}`);
    response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: error.message }));
  }
});
server.listen(Number(process.env.EXAMPLE_PORT ?? 3489), '127.0.0.1', () => console.log(`trip-app up (${telemetry.connected ? 'calls are runs in Loopscope' : 'spans only'})`));
