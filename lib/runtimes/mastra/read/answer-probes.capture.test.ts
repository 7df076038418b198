import { describeLiveAnswerProbes } from '../../testing/describe-live-answer-probes';
import { probeRules } from './testing/probe-rules';

/**
 * Every answer probe sent again through the real Mastra (its packages and Node 22, installed by
 * scripts/ensure-node-app.js on a fresh machine; the pause made offline, each answer its own run):
 * Mastra still does what answer-probes.json recorded, run by run, and the TypeScript Loopscope
 * gives for each answer it accepts, run as the app would paste it (with the `mastra` instance that
 * paused, after the probe's earlier answers), runs the same tools and ends the same way.
 */
await describeLiveAnswerProbes(probeRules);
