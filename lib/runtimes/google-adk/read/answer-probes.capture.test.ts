import { describeLiveAnswerProbes } from '../../testing/describe-live-answer-probes';
import { probeRules } from './testing/probe-rules';

/**
 * Every answer probe sent again through the real Google ADK (its venv, made by
 * scripts/ensure-venv.js on a fresh machine; the pause made offline, one `Runner.run_async` with
 * the answer): ADK still does what answer-probes.json recorded, and the Python Loopscope gives for
 * each answer it accepts, run as the app would (`answer_pause` on the paused run's runner and
 * session), runs the same tools and ends the same way.
 */
await describeLiveAnswerProbes(probeRules);
