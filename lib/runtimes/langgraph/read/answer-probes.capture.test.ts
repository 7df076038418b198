import { describeLiveAnswerProbes } from '../../testing/describe-live-answer-probes';
import { probeRules } from './testing/probe-rules';

/**
 * Every answer probe sent again through the real LangGraph (its venv, made by
 * scripts/ensure-venv.js on a fresh machine; the pause made offline, one
 * `graph.invoke(Command(resume=…))`): LangGraph still does what answer-probes.json recorded, and
 * the Python Loopscope gives for each answer it accepts, run as the app would (on the probe's own
 * pause: its interrupt ids and thread), runs the same tools, leaves as many interrupts and ends
 * with the same text. The code is written from the GenAI spans; the rules under OpenInference
 * write the same values (resume-rules.test.ts).
 */
await describeLiveAnswerProbes(probeRules.genai);
