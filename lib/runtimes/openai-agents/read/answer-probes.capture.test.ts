import { describeLiveAnswerProbes } from '../../testing/describe-live-answer-probes';
import { probeRules } from './testing/probe-rules';

/**
 * Every answer probe sent again through the real OpenAI Agents SDK (its venv, made by
 * scripts/ensure-venv.js on a fresh machine; the model is the app's scripted Responses API on
 * loopback): the SDK still does what answer-probes.json recorded, and the Python Loopscope gives
 * for each answer it accepts, run as the app would paste it (on the paused run's `result` and
 * `agent`), runs the same tools, tells the model the same and ends the same way.
 */
await describeLiveAnswerProbes(probeRules);
