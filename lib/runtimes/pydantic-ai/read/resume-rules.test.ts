import { describeAnswerProbeRules } from '../../testing/describe-answer-probe-rules';
import { probeRules } from './testing/probe-rules';

/**
 * Pydantic AI's resume rules against what Pydantic AI did with the same answers
 * (answer-probes.json, recorded through `agent.run_sync(message_history=…,
 * deferred_tool_results=…)`): every probe Loopscope can write is accepted or refused as Pydantic
 * AI did, a refusal naming Pydantic AI's own error. answer-probes.capture.test.ts sends them again
 * through the live framework, and the code Loopscope gives for each.
 */
await describeAnswerProbeRules(probeRules);
