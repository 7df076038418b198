import { describeAnswerProbeRules } from '../../testing/describe-answer-probe-rules';
import { probeRules } from './testing/probe-rules';

/**
 * LangGraph's resume rules against what LangGraph did with the same answers (answer-probes.json,
 * recorded through one `graph.invoke(Command(resume=…))`), under both instrumentations: each is
 * accepted or refused as LangGraph did, a refusal naming LangGraph's own error, and the resume
 * values Loopscope builds are the ones LangGraph was sent. answer-probes.capture.test.ts sends
 * them again through the live LangGraph, and the code Loopscope gives for each.
 */
await describeAnswerProbeRules(probeRules.genai);
await describeAnswerProbeRules(probeRules.openinference);
