/**
 * `loopscope/ai-sdk`: Loopscope in a developer's own Vercel AI SDK (v7) app (issue 39;
 * docs/guides/ai-sdk.md, "Step your own app"; docs/adr/0013-ai-sdk-app-door.md).
 *
 * ```ts
 * import { generateText, wrapLanguageModel } from 'ai';
 * import { answerInLoopscope, loopscopeStep, loopscopeTelemetry, loopscopeTools } from 'loopscope/ai-sdk';
 *
 * loopscopeTelemetry(); // once: spans to Loopscope, each call a run there
 * const model = wrapLanguageModel({ model: yourModel, middleware: loopscopeStep() });
 * const tools = loopscopeTools({ getWeather, bookTrip });
 * const result = await generateText({ model, tools, messages });
 * // stopped for an approval or a handed-back tool: the developer answers in Loopscope's workbench
 * messages.push(...result.responseMessages, ...(await answerInLoopscope(result)));
 * ```
 *
 * Under `loopscope start -- <cmd>` the app gets Loopscope's URL and a secret that lets it make its
 * calls runs; elsewhere pass LOOPSCOPE_TOKEN (the start banner's). The imports are `ai`,
 * `@ai-sdk/*`, `@opentelemetry/*` and Loopscope's own code: `ai` is the app's (a peer).
 */
export { loopscopeTelemetry, type LoopscopeTelemetry, type LoopscopeTelemetryOptions } from './loopscope-telemetry';
export { loopscopeStep, loopscopeTools } from './loopscope-step';
export { answerInLoopscope, type AnsweredResult } from './answer-in-loopscope';
