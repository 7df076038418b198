import { z } from 'genkit';
import { defineTools } from '../lib/runtimes/genkit-js/run/define-tools';

/**
 * Plain tools: they run, return, and the loop goes on. One model turn asks for them, one
 * `role: "tool"` message answers, the next model turn reads the answers.
 */
export default defineTools((ai) => [
  ai.defineTool(
    {
      name: 'getWeather',
      description: 'Current weather for a city.',
      inputSchema: z.object({ city: z.string().describe('City name, e.g. "Lisbon"') }),
      outputSchema: z.object({ city: z.string(), temperatureC: z.number(), conditions: z.string() }),
    },
    async ({ city }) => {
      // Deterministic so traces can be compared run to run.
      const temperatureC = 12 + (city.length * 7) % 15;
      return { city, temperatureC, conditions: temperatureC > 20 ? 'sunny' : 'cloudy' };
    },
  ),
  ai.defineTool(
    {
      name: 'convertTemperature',
      description: 'Converts a temperature from Celsius to Fahrenheit.',
      inputSchema: z.object({ celsius: z.number() }),
      outputSchema: z.object({ fahrenheit: z.number() }),
    },
    async ({ celsius }) => ({ fahrenheit: Math.round((celsius * 9) / 5 + 32) }),
  ),
]);
