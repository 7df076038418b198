import { describe, expect, it } from 'vitest';
import { goAppResumePayload } from './app-resume-input';

describe('goAppResumePayload (genkit Go 1.12 /util/generate resume)', () => {
  const messages = [{ role: 'user', content: [{ text: 'Book a hotel in Porto' }] }];
  const tools = [{ name: 'bookHotel', metadata: { multipart: true } }, { name: 'getWeather', metadata: { multipart: false } }];

  it('wraps a response to a multipart tool as {output: …}, leaves plain tools, envelopes and restarts alone, and does not mutate', () => {
    const payload = {
      messages,
      resume: {
        respond: [
          { toolResponse: { name: 'bookHotel', ref: 'book-1', output: { city: 'Porto', nights: 2 } } },
          { toolResponse: { name: 'getWeather', ref: 'w1', output: { celsius: 21 } } },
          { toolResponse: { name: 'bookHotel', ref: 'book-2', output: { output: { city: 'Faro' } } } },
        ],
        restart: [{ toolRequest: { name: 'bookHotel', ref: 'book-3', input: {} }, metadata: { resumed: { confirmed: true } } }],
      },
    };
    const before = structuredClone(payload);
    const wrapped = goAppResumePayload({ payload, tools });
    expect(wrapped.resume!.respond.map((part) => (part as { toolResponse: { output: unknown } }).toolResponse.output)).toEqual([{ output: { city: 'Porto', nights: 2 } }, { celsius: 21 }, { output: { city: 'Faro' } }]);
    expect(wrapped.resume!.restart).toEqual(payload.resume.restart);
    expect(payload).toEqual(before);
  });
});
