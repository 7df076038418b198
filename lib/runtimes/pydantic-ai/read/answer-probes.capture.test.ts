import { describeLiveAnswerProbes } from '../../testing/describe-live-answer-probes';
import { probeRules } from './testing/probe-rules';

/**
 * Every answer probe sent again through real Pydantic AI (its venv, made by scripts/ensure-venv.js
 * on a fresh machine): Pydantic AI still does what answer-probes.json recorded, and the Python
 * Loopscope gives for each answer, run as the app would paste it (the message history rebuilt
 * from the recorded spans, DeferredToolResults, the paused run's conversation id), is accepted or
 * refused as the answer was, runs the same tools and ends the same way.
 */
await describeLiveAnswerProbes(probeRules);
