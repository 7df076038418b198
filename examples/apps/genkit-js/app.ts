/**
 * A developer's own genkit JS app, as Loopscope attaches to it: plain `genkit/beta`, no
 * exporter; one optional line of Loopscope (its step plugin, for Step and breakpoints). Started under `loopscope start -- node --import tsx app.ts`
 * (or `genkit start -- …`) it runs in dev mode, so genkit starts its reflection server, writes
 * `.genkit/runtimes/<id>.json` in this folder (the nearest package.json) and sends its spans to
 * GENKIT_TELEMETRY_SERVER.
 *
 * - `planTrip` (flow): one generate with the app's model and two tools.
 * - `getWeather` (tool): answers at once.
 * - `bookTrip` (tool): interrupts for a human's confirmation; run again by a restart (resumed),
 *   it books — and writes a marker file, so a test sees that the app's own tool ran.
 * - `askTraveler` (defineInterrupt): a respond-only question.
 * - `demo/trip-model` (model): scripted, no API needed — asks for getWeather + bookTrip, then
 *   answers with what the tools returned.
 *
 * The marker folder is EXAMPLE_MARKERS_DIR (default: `.markers/` here).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { genkit, z } from 'genkit/beta';
import { loopscope } from '../../../lib/runtimes/genkit-js/app-plugin/index';

const here = path.dirname(fileURLToPath(import.meta.url));
const markers = process.env.EXAMPLE_MARKERS_DIR ?? path.join(here, '.markers');

// The one line that lets Loopscope step this app's generates (Step, breakpoints). In your own
// app: `import { loopscope } from 'loopscope/genkit'` once Loopscope is a dev dependency.
// (EXAMPLE_WITHOUT_LOOPSCOPE=1 leaves it out: the e2e tests see how an app without it is refused.)
const ai = genkit({ name: 'trip-planner', plugins: process.env.EXAMPLE_WITHOUT_LOOPSCOPE === '1' ? [] : [loopscope()] });

const TravelerSchema = z.object({ name: z.string(), age: z.number().int().min(0) });

const getWeather = ai.defineTool(
  {
    name: 'getWeather',
    description: 'The weather in a city.',
    inputSchema: z.object({ city: z.string() }),
    outputSchema: z.object({ city: z.string(), tempC: z.number(), sky: z.enum(['sunny', 'cloudy', 'rain']) }),
  },
  async ({ city }) => ({ city, tempC: 21, sky: 'sunny' as const }),
);

const bookTrip = ai.defineTool(
  {
    name: 'bookTrip',
    description: 'Books the trip; a human confirms first (interrupts unless resumed).',
    inputSchema: z.object({ city: z.string(), nights: z.number().int().min(1), travelers: z.array(TravelerSchema) }),
    outputSchema: z.object({ booked: z.boolean(), reference: z.string(), confirmedBy: z.string() }),
  },
  async (input, ctx) => {
    if (!ctx.resumed) ctx.interrupt({ question: `Book ${input.nights} night(s) in ${input.city} for ${input.travelers.length}?` });
    const confirmedBy = (ctx.resumed as { confirmedBy?: string } | true | undefined) === true ? 'someone' : ((ctx.resumed as { confirmedBy?: string }).confirmedBy ?? 'someone');
    const reference = `BK-${input.city.toUpperCase()}-${input.nights}`;
    mkdirSync(markers, { recursive: true });
    writeFileSync(path.join(markers, `booked-${reference}.json`), JSON.stringify({ ...input, reference, confirmedBy, pid: process.pid }));
    return { booked: true, reference, confirmedBy };
  },
);

const askTraveler = ai.defineInterrupt({
  name: 'askTraveler',
  description: 'Asks the traveler a question.',
  inputSchema: z.object({ question: z.string() }),
  outputSchema: z.object({ answer: z.string() }),
});

const MODEL = 'demo/trip-model';
ai.defineModel({ name: MODEL, supports: { tools: true, multiturn: true } }, async (request) => {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') {
    const outputs = last.content.flatMap((part) => (part.toolResponse ? [`${part.toolResponse.name}: ${JSON.stringify(part.toolResponse.output)}`] : []));
    return { message: { role: 'model', content: [{ text: `Done. ${outputs.join('; ')}` }] }, finishReason: 'stop' };
  }
  const prompt = request.messages.flatMap((message) => message.content.map((part) => part.text ?? '')).join(' ');
  const city = /to (\w+)/i.exec(prompt)?.[1] ?? 'Paris';
  const nights = Number(/(\d+) night/i.exec(prompt)?.[1] ?? 2);
  return {
    message: {
      role: 'model',
      content: [
        { toolRequest: { name: 'getWeather', ref: 'w1', input: { city } } },
        { toolRequest: { name: 'bookTrip', ref: 'b1', input: { city, nights, travelers: [{ name: 'Ada', age: 36 }] } } },
      ],
    },
    finishReason: 'stop',
  };
});

export const planTrip = ai.defineFlow(
  {
    name: 'planTrip',
    inputSchema: z.object({
      city: z.string().describe('Where to go'),
      nights: z.number().int().min(1).default(2),
      travelers: z.array(TravelerSchema).default([]),
      budget: z.enum(['low', 'medium', 'high']).default('medium'),
    }),
    outputSchema: z.object({ text: z.string(), finishReason: z.string(), interrupts: z.array(z.string()) }),
  },
  async ({ city, nights, budget }) => {
    const response = await ai.generate({ model: MODEL, prompt: `Plan a ${budget} trip to ${city} for ${nights} nights.`, tools: [getWeather, bookTrip, askTraveler] });
    return { text: response.text, finishReason: response.finishReason, interrupts: response.interrupts.map((part) => part.toolRequest.name) };
  },
);

console.log(`trip-planner app up (pid ${process.pid}, GENKIT_ENV=${process.env.GENKIT_ENV ?? 'unset'})`);
