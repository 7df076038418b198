import { tool } from 'ai';
import { z } from 'zod';

/**
 * AI SDK tools that run and return: one model turn asks for both, `generateText` runs them
 * in parallel in one step, the next step's model call reads both results.
 */
export default {
  getWeather: tool({
    description: 'Current weather for a city.',
    inputSchema: z.object({ city: z.string().describe('City name, e.g. "Lisbon"') }),
    // Deterministic (as tools/weather.ts), so traces can be compared run to run.
    execute: async ({ city }) => {
      const temperatureC = 12 + ((city.length * 7) % 15);
      return { city, temperatureC, conditions: temperatureC > 20 ? 'sunny' : 'cloudy' };
    },
  }),
  convertTemperature: tool({
    description: 'Converts a temperature from Celsius to Fahrenheit.',
    inputSchema: z.object({ celsius: z.number() }),
    execute: async ({ celsius }) => ({ fahrenheit: Math.round((celsius * 9) / 5 + 32) }),
  }),
};
