import { describeLiveAnswerProbes } from '../../testing/describe-live-answer-probes';
import { probeRules } from './testing/probe-rules';

/**
 * Every answer probe sent again through the real Strands Agents (its venv, made by
 * scripts/ensure-venv.js on a fresh machine; the pause made offline, the agent called again with
 * interruptResponse blocks): Strands still does what answer-probes.json recorded, word for word
 * in its errors, and the Python Loopscope gives for each answer it accepts, run as the app would
 * paste it (on the paused `agent`), runs the same tools and ends the same way.
 */
await describeLiveAnswerProbes(probeRules);
