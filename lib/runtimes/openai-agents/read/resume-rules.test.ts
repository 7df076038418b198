import { describeAnswerProbeRules } from '../../testing/describe-answer-probe-rules';
import { probeRules } from './testing/probe-rules';

/**
 * The OpenAI Agents SDK's resume rules against what the SDK did with the same answers
 * (answer-probes.json, recorded through `result.to_state()`, `state.approve` / `state.reject` and
 * `Runner.run(agent, state)`): every probe Loopscope can write is accepted or refused as the SDK
 * did. The SDK refuses nothing well-typed — what it ignores or pauses again on is a warning here —
 * and has no API for a result or a value, which Loopscope refuses in the SDK's terms.
 * answer-probes.capture.test.ts sends them again through the live SDK, and the code Loopscope gives.
 */
await describeAnswerProbeRules(probeRules);
