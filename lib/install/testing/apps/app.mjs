/**
 * A developer's genkit JS app that knows nothing of Loopscope (the package test's and benchmark's
 * app: lib/install/testing/packed-project.ts copies it into a fresh project). A flow with one
 * generate on a scripted model (no API key) that calls one tool, then answers with its output.
 */
import { genkit, z } from 'genkit';

const ai = genkit({ name: 'weather-app' });

const getWeather = ai.defineTool(
  { name: 'getWeather', description: 'The weather in a city.', inputSchema: z.object({ city: z.string() }), outputSchema: z.object({ city: z.string(), tempC: z.number() }) },
  async ({ city }) => ({ city, tempC: 21 }),
);

ai.defineModel({ name: 'demo/scripted', supports: { tools: true, multiturn: true } }, async (request) => {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return { message: { role: 'model', content: [{ text: `It is ${last.content[0].toolResponse.output.tempC} °C.` }] }, finishReason: 'stop' };
  return { message: { role: 'model', content: [{ toolRequest: { name: 'getWeather', ref: 'w1', input: { city: 'Oslo' } } }] }, finishReason: 'stop' };
});

export const weatherFlow = ai.defineFlow({ name: 'weatherFlow', inputSchema: z.object({ city: z.string() }), outputSchema: z.string() }, async ({ city }) => {
  const response = await ai.generate({ model: 'demo/scripted', prompt: `Weather in ${city}?`, tools: [getWeather] });
  return response.text;
});

console.log('weather-app up');
