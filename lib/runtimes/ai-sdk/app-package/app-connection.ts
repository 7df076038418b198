/**
 * Where the app's Loopscope is and what lets the app in (lib/contract/attach-ai-sdk.ts): the URL
 * (LOOPSCOPE_URL, else the default port), the app's credential (LOOPSCOPE_APP_SECRET, given by
 * `loopscope start -- <cmd>` to the app it starts; else LOOPSCOPE_TOKEN, Loopscope's own token,
 * which a developer passes to an app started otherwise), and the app's name on the Apps page.
 * Without a credential the app's spans still reach Loopscope (the OTLP door takes them without
 * one), but its calls are not runs Loopscope can step.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AI_SDK_APP_ENVIRONMENT, AI_SDK_DOOR_PREFIX, DEFAULT_LOOPSCOPE_URL } from '../../../contract/attach-ai-sdk';
import { errorMessage } from '../../../errors';
import { postToDoor } from '../../../runner/remote-stepper';
import type { z } from 'zod';

export interface AppConnectionOptions {
  /** Loopscope's URL (default: LOOPSCOPE_URL, else http://127.0.0.1:4747). */
  url?: string;
  /** The app's credential (default: LOOPSCOPE_APP_SECRET, else LOOPSCOPE_TOKEN). */
  credential?: string;
  /** The app's name on the Apps page (default: LOOPSCOPE_APP_NAME, else its package.json's name, else its folder's). */
  name?: string;
}

/** The `name` of the package.json in `folder`, if it has one. */
function packageNameIn(folder: string): string | undefined {
  try {
    const name = (JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' && name.length > 0 ? name : undefined;
  } catch {
    return undefined;
  }
}

export class AppConnection {
  readonly url: string;
  readonly credential: string | undefined;
  readonly app: { name: string; pid: number };
  private readonly said = new Set<string>();

  constructor(options: AppConnectionOptions & { environment?: NodeJS.ProcessEnv }) {
    const environment = options.environment ?? process.env;
    this.url = (options.url ?? environment[AI_SDK_APP_ENVIRONMENT.url] ?? DEFAULT_LOOPSCOPE_URL).replace(/\/+$/, '');
    this.credential = (options.credential ?? (environment[AI_SDK_APP_ENVIRONMENT.secret] || environment[AI_SDK_APP_ENVIRONMENT.token])) || undefined;
    const name = options.name ?? environment[AI_SDK_APP_ENVIRONMENT.name] ?? packageNameIn(process.cwd()) ?? path.basename(process.cwd());
    this.app = { name: name.slice(0, 200) || 'ai-sdk-app', pid: process.pid };
  }

  /** Where the app's spans go: Loopscope's OTLP/HTTP receiver. */
  get tracesUrl(): string {
    return `${this.url}/v1/traces`;
  }

  /** POSTs to the AI SDK app door with `token` (the app's credential for hello / start, the run's step token after). */
  post<T>(options: { op: string; body: unknown; schema: z.ZodType<T> | undefined; token: string }): Promise<T> {
    return postToDoor({ url: `${this.url}${AI_SDK_DOOR_PREFIX}${options.op}`, token: options.token, body: options.body, schema: options.schema, what: `AI SDK app door (${options.op})` });
  }

  /** Tells the developer something once (on the app's stderr, prefixed so it is known to be Loopscope's). */
  sayOnce(key: string, message: string): void {
    if (this.said.has(key)) return;
    this.said.add(key);
    process.stderr.write(`loopscope/ai-sdk: ${message}\n`);
  }

  /** A failure of a door request, said once per kind. */
  sayFailure(key: string, error: unknown): void {
    this.sayOnce(key, errorMessage(error));
  }
}
