/**
 * The example app's agent: a plain AI SDK v7 loop with an offline model (no API key), two tools
 * and an approval, written as a developer would — plus Loopscope's lines (marked). The model reads
 * the conversation: it asks for the weather in the city of the request, then books the trip in
 * the city the weather came back for (so an input edited at a pause shows in the answer), and
 * answers with what the tools returned. `bookTrip` needs an approval; the app asks Loopscope for
 * it (`answerInLoopscope`), and its `execute` writes a marker file, so a test sees that the
 * app's own tool ran.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, stepCountIs, tool, wrapLanguageModel, type ModelMessage } from 'ai';
import { z } from 'zod';
// Loopscope: in your own app, `from 'loopscope/ai-sdk'` once Loopscope is a dev dependency.
import { answerInLoopscope, loopscopeStep, loopscopeTools } from '../../../lib/runtimes/ai-sdk/app-package/index';

type ToolOutput = { toolName: string; value: unknown };

/** The tool results of the conversation so far, newest last (a denied call reads `{ denied, reason }`). */
function toolOutputs(prompt: LanguageModelV4CallOptions['prompt']): ToolOutput[] {
  const outputs: ToolOutput[] = [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output;
      const value = output.type === 'execution-denied' ? { denied: true, reason: output.reason } : 'value' in output ? output.value : undefined;
      outputs.push({ toolName: part.toolName, value });
    }
  }
  return outputs;
}

function userText(prompt: LanguageModelV4CallOptions['prompt']): string {
  const user = prompt.find((message) => message.role === 'user');
  return user && Array.isArray(user.content) ? user.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ') : '';
}

/** The model's next answer to the conversation. */
function nextAnswer(prompt: LanguageModelV4CallOptions['prompt']): LanguageModelV4Content[] {
  const request = userText(prompt);
  const city = /\bto ([A-Z][\w-]*)/.exec(request)?.[1] ?? 'Lisbon';
  const nights = Number(/(\d+) nights?/.exec(request)?.[1] ?? 2);
  const outputs = toolOutputs(prompt);
  const weather = outputs.findLast((output) => output.toolName === 'getWeather')?.value as { city: string; tempC: number; sky: string } | undefined;
  const booking = outputs.findLast((output) => output.toolName === 'bookTrip')?.value as { reference?: string; denied?: boolean; reason?: string } | undefined;
  if (!weather) return [{ type: 'tool-call', toolCallId: 'weather-1', toolName: 'getWeather', input: JSON.stringify({ city }) }];
  if (!booking) return [{ type: 'tool-call', toolCallId: 'book-1', toolName: 'bookTrip', input: JSON.stringify({ city: weather.city, nights }) }];
  const forecast = `${weather.city} is ${weather.tempC}°C and ${weather.sky}`;
  return [{ type: 'text', text: booking.denied ? `Not booked (${booking.reason ?? 'denied'}); ${forecast}.` : `Booked ${booking.reference}: ${forecast}.` }];
}

const NO_USAGE = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };

function generated(content: LanguageModelV4Content[]): LanguageModelV4GenerateResult {
  const calls = content.some((part) => part.type === 'tool-call');
  return { content, finishReason: calls ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' }, usage: NO_USAGE, warnings: [] };
}

/** The offline model, for generateText (doGenerate) and streamText (doStream). */
export const tripModel: LanguageModelV4 = {
  specificationVersion: 'v4',
  provider: 'trip-agent',
  modelId: 'trip-model',
  supportedUrls: {},
  doGenerate: async (options) => generated(nextAnswer(options.prompt)),
  doStream: async (options) => {
    const result = generated(nextAnswer(options.prompt));
    const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    for (const part of result.content) {
      if (part.type === 'text') parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
      else parts.push(part as LanguageModelV4StreamPart);
    }
    parts.push({ type: 'finish', usage: result.usage, finishReason: result.finishReason });
    return { stream: new ReadableStream({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }) };
  },
};

/** The app's tools; `bookTrip` writes `booked-<reference>.json` into `markers`. */
export function tripTools(markers: string) {
  return {
    getWeather: tool({
      description: 'The weather in a city.',
      inputSchema: z.object({ city: z.string().min(1) }),
      outputSchema: z.object({ city: z.string(), tempC: z.number(), sky: z.enum(['sunny', 'cloudy', 'rain']) }),
      execute: async ({ city }) => ({ city, tempC: 10 + city.length, sky: city.length % 2 === 0 ? ('sunny' as const) : ('cloudy' as const) }),
    }),
    bookTrip: tool({
      description: 'Books the trip; a human approves it first.',
      inputSchema: z.object({ city: z.string().min(1), nights: z.number().int().min(1) }),
      needsApproval: true,
      execute: async ({ city, nights }) => {
        const reference = `BK-${city.toUpperCase()}-${nights}`;
        mkdirSync(markers, { recursive: true });
        writeFileSync(path.join(markers, `booked-${reference}.json`), JSON.stringify({ city, nights, reference, pid: process.pid }));
        return { reference };
      },
    }),
  };
}

// Loopscope: the model and the tools pause where Loopscope's run page says (Step, breakpoints).
export const model = wrapLanguageModel({ model: tripModel, middleware: loopscopeStep() });

/**
 * The agent loop: a `generateText`, and while it stops for an approval, the answer from
 * Loopscope's workbench and the next `generateText` with it. Returns the final text.
 */
export async function planTrip(options: { request: string; markers: string }): Promise<{ text: string; calls: number }> {
  const tools = loopscopeTools(tripTools(options.markers));
  const messages: ModelMessage[] = [{ role: 'user', content: options.request }];
  for (let calls = 1; ; calls += 1) {
    const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(6) });
    messages.push(...result.responseMessages);
    // Loopscope: the developer approves or denies bookTrip in the workbench.
    const answer = await answerInLoopscope(result);
    if (answer.length === 0) return { text: result.text, calls };
    messages.push(...answer);
  }
}
