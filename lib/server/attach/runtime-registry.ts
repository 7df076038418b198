/**
 * The genkit runtimes Loopscope is attached to, found two ways:
 *
 * - **Dialed in** (issue 36): the app `loopscope start -- <cmd>` runs opens a WebSocket to
 *   Loopscope's reflection door and registers there (genkit's reflection API v2,
 *   dialed-runtime.ts); it is gone when that connection closes. Such an app listens on no port.
 * - **By runtime file**, as genkit's CLI discovers them (tools-common `RuntimeManager`): every JSON
 *   file in `<project root>/.genkit/runtimes/` of the watched folders is a runtime that answered
 *   `GET /api/__health` when last checked. A file whose runtime stopped answering is dropped (its
 *   file deleted only when its pid is gone, as a killed runtime leaves it behind); a restarted app
 *   writes a new file with a new id. Each newly found runtime is told Loopscope's telemetry URL
 *   (`POST /api/notify`), so an app started without GENKIT_TELEMETRY_SERVER sends its spans here
 *   too. Its reflection server checks neither Host nor Origin: the runtime is described with a
 *   `reflectionWarning` saying so (docs/security-model.md).
 *
 * A runtime of a kind that can register before it has defined all its actions (genkit Go and
 * Python: `registersBeforeDefining` in lib/runtimes/genkit-reflection/attached-kinds.ts) is
 * attached only once two action lists in a row, at least SETTLE_MS apart, name the same actions:
 * genkit Python writes its runtime file (and dials in) as soon as its reflection API is up, before
 * app.py has defined its flows and tools — measured on genkit Python 0.12: a list read straight
 * after the file appeared named 4 of 8 actions, and a flow run in that window exported no span
 * (docs/attach-runtimes.md). The confirming list is asked for SETTLE_MS after the first, on a
 * timer of its own: waiting for the next poll instead put anywhere from ~0 to 500 ms between the
 * two (the poll's phase). A genkit JS runtime registers only after the app's modules ran, with
 * all they define: it is attached at its first list, which saves the settle time on every start
 * of a genkit JS app (docs/performance.md, "Starting the package").
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { AttachedRuntime, AttachedRuntimeKind } from '../../contract/runtimes';
import { loopbackReflectionUrl, PROJECT_MARKERS, RuntimeFileSchema, runtimeKindOf, type RuntimeFile } from '../../runtimes/genkit-reflection/runtime-file';
import { readReflectionActions } from '../../runtimes/genkit-reflection/reflection-actions';
import { STEP_MIDDLEWARE } from '../../contract/attach-step';
import { ATTACHED_KINDS } from '../../runtimes/genkit-reflection/attached-kinds';
import { errorMessage, LoopscopeError } from '../../errors';
import { tryParseJsonLimited } from '../../spans/parse-json-limited';
import { DialedRuntime, type MessageSocket } from './dialed-runtime';
import { httpReflection } from './reflection-client';
import type { ReflectionTransport } from './reflection-transport';

export interface KnownRuntime {
  id: string;
  name: string;
  runtime: AttachedRuntimeKind;
  pid: number;
  genkitVersion?: string;
  /** How Loopscope reaches its reflection API: the connection it dialed in on, or genkit's HTTP server. */
  reflection: ReflectionTransport;
  projectDir: string;
  /** Its runtime file (a runtime found by one). */
  file?: string;
}

/**
 * Why a runtime reached over HTTP is open to web pages, for the Apps page and the log. genkit's
 * reflection server (read in JS 1.42, Go 1.12 and Python 0.12, and measured with each) answers
 * whatever Host and Origin a request carries.
 */
function reflectionWarning(url: string): string {
  return (
    `This app's genkit reflection server (${url}) checks neither Host nor Origin: a web page on a name that resolves to 127.0.0.1 (DNS rebinding) can list and run its actions. ` +
    'Run it with `loopscope start -- <command>` on genkit JS ≥ 1.31, Go ≥ 1.7 or Python ≥ 0.6: it then connects to Loopscope and listens on no port.'
  );
}

/** The project root genkit's CLI would pick from `dir`: the nearest folder holding a project marker (else `dir`). */
export function projectRootOf(dir: string): string {
  let current = path.resolve(dir);
  for (;;) {
    if (PROJECT_MARKERS.some((marker) => existsSync(path.join(current, marker)))) return current;
    const parent = path.dirname(current);
    if (parent === current) return path.resolve(dir);
    current = parent;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const ACTIONS_FRESH_MS = 1_000;
/**
 * The least time between the two equal action lists that attach a runtime: the mean gap of the
 * 500 ms poll this replaced, now also its minimum (two lists taken back to back prove nothing).
 */
export const SETTLE_MS = 250;
/** genkit's runtime files are ~300 bytes; a larger one is not read. */
const RUNTIME_FILE_MAX_BYTES = 64 * 1024;

/** What `describe` keeps of a runtime for ACTIONS_FRESH_MS, and since when (Date.now()). */
interface DescribedActions {
  at: number;
  value: Promise<Pick<AttachedRuntime, 'actions' | 'problem' | 'stepPlugin'>>;
}

/** A runtime's answer to listActions as a scan took it: the list, or the refusal to read it (FAILED_PRECONDITION). */
type Listed = { ok: true; body: unknown } | { ok: false; error: unknown };

/** The action keys of a list, sorted, as one string: two scans compare them. */
function listedKeys(body: unknown): string {
  return typeof body === 'object' && body !== null ? Object.keys(body).sort().join('\n') : `not an object: ${typeof body}`;
}

export class RuntimeRegistry {
  /** Attached runtimes, by source: a runtime file's path, or `dialed:<n>`. */
  private readonly known = new Map<string, KnownRuntime>();
  /** Registered dialed-in runtimes (attached or settling), by `dialed:<n>`. */
  private readonly dialed = new Map<string, DialedRuntime>();
  private dialedCount = 0;
  private readonly refused = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private readonly actions = new Map<string, DescribedActions>();
  private readonly listeners = new Set<() => void>();
  /** Healthy runtimes of a kind that settles, not attached yet: the action keys of their last list and when it was taken (ms), by source. */
  private readonly settling = new Map<string, { id: string; keys: string; at: number }>();
  /** The scan that takes a settling runtime's confirming list (one timer for all of them). */
  private settleTimer: NodeJS.Timeout | undefined;

  /**
   * @param options.projectDirs project roots whose `.genkit/runtimes/` to watch
   * @param options.telemetryServerUrl told to every runtime found (genkit's notify) and answered to each that dials in
   * @param options.dialedProjectDir the project folder of runtimes that dial in (the app's: they do not say theirs)
   * @param options.pollMs how often the folders and the runtimes' health are checked
   * @param options.settleMs the least time between the two equal action lists that attach a runtime (SETTLE_MS)
   */
  constructor(private readonly options: { projectDirs: string[]; telemetryServerUrl: string; dialedProjectDir?: string; pollMs?: number; settleMs?: number }) {}

  private get settleMs(): number {
    return this.options.settleMs ?? SETTLE_MS;
  }

  /**
   * A runtime that opened a connection to the reflection door (reflection-door.ts, which checked
   * the connection's Host, Origin and secret). It is attached once it registered and its actions
   * settled; the returned runtime is fed what arrives on the connection.
   */
  dialedIn(socket: MessageSocket): DialedRuntime {
    const source = `dialed:${(this.dialedCount += 1)}`;
    return new DialedRuntime({
      socket,
      telemetryServerUrl: this.options.telemetryServerUrl,
      onRegister: (runtime) => {
        this.dialed.set(source, runtime);
        void this.scan();
      },
      onClose: () => {
        this.dialed.delete(source);
        this.settling.delete(source);
        if (this.known.delete(source)) for (const listener of this.listeners) listener();
      },
    });
  }

  get watching(): string[] {
    return [...this.options.projectDirs];
  }

  start(): void {
    if (this.timer) return;
    void this.scan();
    this.timer = setInterval(() => void this.scan(), this.options.pollMs ?? 500);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
  }

  /**
   * A started registry scans again as soon as the oldest settling runtime's first list is
   * SETTLE_MS old, rather than at the next poll: attaching waits for the settle time, not for the
   * poll's phase.
   */
  private scheduleSettleScan(): void {
    if (!this.timer || this.settleTimer || this.settling.size === 0) return;
    const oldest = Math.min(...[...this.settling.values()].map((entry) => entry.at));
    this.settleTimer = setTimeout(
      () => {
        this.settleTimer = undefined;
        void this.scan();
      },
      Math.max(0, oldest + this.settleMs - performance.now()),
    );
    this.settleTimer.unref();
  }

  /** Called after each scan that changed the set of runtimes. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One pass over the folders and the known runtimes (concurrent calls share it). */
  scan(): Promise<void> {
    this.scanning ??= this.scanOnce().finally(() => {
      this.scanning = undefined;
    });
    return this.scanning;
  }

  private async scanOnce(): Promise<void> {
    const seen = new Set<string>();
    let changed = false;
    for (const projectDir of this.options.projectDirs) {
      const dir = path.join(projectDir, '.genkit', 'runtimes');
      let names: string[];
      try {
        names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
      } catch {
        continue;
      }
      for (const name of names) {
        const file = path.join(dir, name);
        seen.add(file);
        const runtime = await this.read({ file, projectDir });
        const before = this.known.get(file);
        if (runtime && (await runtime.reflection.healthy())) {
          const listed = !before || before.id !== runtime.id ? await this.settled({ source: file, runtime }) : undefined;
          if (listed) {
            this.attach({ source: file, runtime, listed });
            console.error(`loopscope: attached ${runtime.name} (${runtime.id}) by its runtime file. ${reflectionWarning(runtime.reflection.where)}`);
            changed = true;
          }
        } else if (before || runtime) {
          this.settling.delete(file);
          if (this.known.delete(file)) changed = true;
          // A runtime killed without its cleanup leaves its file; genkit's CLI deletes such files too.
          if (runtime && !processAlive(runtime.pid)) await unlink(file).catch(() => undefined);
        }
      }
    }
    for (const [source, dialed] of this.dialed) {
      seen.add(source);
      if (this.known.has(source)) continue;
      const runtime = this.fromRegistration(dialed);
      const listed = runtime ? await this.settled({ source, runtime }) : undefined;
      if (runtime && listed && this.dialed.has(source)) {
        this.attach({ source, runtime, listed });
        changed = true;
      }
    }
    for (const source of [...this.settling.keys()]) if (!seen.has(source)) this.settling.delete(source);
    for (const source of [...this.known.keys()]) {
      if (!seen.has(source)) {
        this.known.delete(source);
        changed = true;
      }
    }
    if (changed) for (const listener of this.listeners) listener();
    this.scheduleSettleScan();
  }

  /**
   * Lists a settled runtime, described at once (its actions from the list that settled it, its
   * step plugin asked now): the first `GET /api/runtimes` after it attached then answers from that,
   * without a round trip to the app of its own.
   */
  private attach(options: { source: string; runtime: KnownRuntime; listed: Listed }): void {
    this.known.set(options.source, options.runtime);
    this.cacheDescription({ runtime: options.runtime, listed: options.listed.ok ? Promise.resolve(options.listed.body) : Promise.reject(options.listed.error) });
  }

  /** A dialed-in runtime as the registry lists it, or undefined (closed) when its genkit is no runtime Loopscope knows. */
  private fromRegistration(dialed: DialedRuntime): KnownRuntime | undefined {
    const registration = dialed.registration!;
    const runtime = runtimeKindOf(registration.genkitVersion);
    if (!runtime) {
      console.error(`loopscope: refused the runtime that dialed in as ${registration.id}: genkitVersion "${registration.genkitVersion}" is no runtime Loopscope knows.`);
      dialed.close();
      return undefined;
    }
    return {
      id: registration.id,
      name: registration.name ?? registration.id,
      runtime,
      pid: registration.pid,
      ...(registration.genkitVersion ? { genkitVersion: registration.genkitVersion } : {}),
      reflection: dialed,
      projectDir: this.options.dialedProjectDir ?? this.options.projectDirs[0] ?? process.cwd(),
    };
  }

  /**
   * The runtime's action list once it can be attached, else undefined: at once for a kind that
   * registers only after defining its actions; for one that can register before, once it listed
   * the same actions as at the previous scan, at least SETTLE_MS after that list. Its first
   * sighting tells it Loopscope's telemetry URL (so an early run's spans are not lost either).
   */
  private async settled(options: { source: string; runtime: KnownRuntime }): Promise<Listed | undefined> {
    const { source, runtime } = options;
    const previous = this.settling.get(source);
    if (previous?.id !== runtime.id) await runtime.reflection.notify(this.options.telemetryServerUrl).catch(() => undefined);
    let listed: Listed;
    let keys: string;
    try {
      const body = await runtime.reflection.listActions();
      listed = { ok: true, body };
      keys = listedKeys(body);
    } catch (error) {
      if (LoopscopeError.isInstance(error) && error.code === 'FAILED_PRECONDITION') {
        // It answered, with a list Loopscope will not read (over the size or depth limit, not
        // JSON): the same refusal (twice, for a kind that settles) attaches it, and `describe`
        // shows it as its problem.
        listed = { ok: false, error };
        keys = `refused: ${error.message}`;
      } else {
        // Not answering its list yet: try again at the next scan.
        this.settling.delete(source);
        return undefined;
      }
    }
    if (!ATTACHED_KINDS[runtime.runtime].registersBeforeDefining) return listed;
    if (previous?.id === runtime.id && previous.keys === keys) {
      // Too soon after the first to prove the list stopped growing: the settle scan asks again.
      if (performance.now() - previous.at < this.settleMs) return undefined;
      this.settling.delete(source);
      return listed;
    }
    this.settling.set(source, { id: runtime.id, keys, at: performance.now() });
    return undefined;
  }

  private async read(options: { file: string; projectDir: string }): Promise<KnownRuntime | undefined> {
    let data: RuntimeFile;
    try {
      if ((await stat(options.file)).size > RUNTIME_FILE_MAX_BYTES) return this.refuse(options.file, `it is larger than ${RUNTIME_FILE_MAX_BYTES} bytes, which no genkit runtime file is`);
      const text = await readFile(options.file, 'utf8');
      const json = tryParseJsonLimited(text);
      // Being written right now: the next scan sees it whole. Too deep is no runtime file.
      if (!json.ok) return json.cause === undefined ? this.refuse(options.file, `it is ${json.problem}`) : undefined;
      const parsed = RuntimeFileSchema.safeParse(json.value);
      if (!parsed.success) return this.refuse(options.file, 'it is not a genkit runtime file');
      data = parsed.data;
    } catch {
      // Removed meanwhile: the next scan does not see it.
      return undefined;
    }
    const url = loopbackReflectionUrl(data.reflectionServerUrl);
    if (!url.ok) return this.refuse(options.file, `its reflection URL is refused: ${url.problem}`);
    const runtime = runtimeKindOf(data.genkitVersion);
    if (!runtime) return this.refuse(options.file, `genkitVersion "${data.genkitVersion}" is no runtime Loopscope knows`);
    return {
      id: data.id,
      name: data.name ?? data.id,
      runtime,
      pid: data.pid,
      ...(data.genkitVersion ? { genkitVersion: data.genkitVersion } : {}),
      reflection: httpReflection(url.url),
      projectDir: options.projectDir,
      file: options.file,
    };
  }

  private refuse(file: string, why: string): undefined {
    if (this.refused.get(file) !== why) console.error(`loopscope: not attaching to ${file}: ${why}.`);
    this.refused.set(file, why);
    return undefined;
  }

  /** The runtimes attached now, newest file last. */
  runtimes(): KnownRuntime[] {
    return [...this.known.values()];
  }

  get(id: string): KnownRuntime | undefined {
    return this.runtimes().find((runtime) => runtime.id === id);
  }

  /**
   * Keeps what `describe` shows of a runtime for ACTIONS_FRESH_MS: its actions read from `listed`
   * (the app's action list) and, for a kind with Loopscope's step plugin, whether it has it.
   */
  private cacheDescription(options: { runtime: KnownRuntime; listed: Promise<unknown> }): DescribedActions {
    const { runtime } = options;
    // Any failure, reading the list included, is this runtime's problem: the others are still listed.
    const actions = options.listed
      .then((body) => ({ actions: readReflectionActions(body) }))
      .catch((error: unknown) => ({ actions: [], problem: `The runtime did not list its actions: ${errorMessage(error)}` }));
    // Only a kind with Loopscope's step plugin has the middleware registry it writes to; an unanswered ask leaves it unknown.
    const plugin = ATTACHED_KINDS[runtime.runtime].stepPlugin
      ? runtime.reflection.listValues('middleware').then(
          (values) => ({ stepPlugin: Object.hasOwn(values, STEP_MIDDLEWARE) }),
          () => ({}),
        )
      : Promise.resolve({});
    const cached = { at: Date.now(), value: Promise.all([actions, plugin]).then(([listed, stepPlugin]) => ({ ...listed, ...stepPlugin })) };
    this.actions.set(runtime.id, cached);
    return cached;
  }

  /** A runtime with its actions and, for genkit JS, whether it has Loopscope's step plugin (asked from its reflection server, at most once a second). */
  async describe(runtime: KnownRuntime): Promise<AttachedRuntime> {
    let cached = this.actions.get(runtime.id);
    if (!cached || Date.now() - cached.at > ACTIONS_FRESH_MS) cached = this.cacheDescription({ runtime, listed: runtime.reflection.listActions() });
    const { actions, problem, stepPlugin } = await cached.value;
    return {
      id: runtime.id,
      name: runtime.name,
      runtime: runtime.runtime,
      pid: runtime.pid,
      ...(runtime.genkitVersion ? { genkitVersion: runtime.genkitVersion } : {}),
      projectDir: runtime.projectDir,
      actions,
      ...(problem ? { problem } : {}),
      ...(stepPlugin !== undefined ? { stepPlugin } : {}),
      ...(runtime.reflection.kind === 'http' ? { reflectionWarning: reflectionWarning(runtime.reflection.where) } : {}),
    };
  }
}
