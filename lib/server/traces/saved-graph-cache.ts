import { createHash } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { LoopscopeError } from '../../errors';
import { buildRunGraph } from '../../graph/build-run-graph';
import { writeFileAtomic } from '../../store/atomic-write';
import { GRAPH_BUILDER_VERSION } from '../../graph/graph-builder-version';
import type { Span } from '../../spans/span';
import { savedTraceFileName, type TraceStore } from '../../store/trace-store';

const MEMORY_GRAPHS = 32;
const MEMORY_SPAN_FILES = 2;

/**
 * Graph JSON of saved files, computed once per file version and kept on disk, so a long
 * loop (genkit's spans grow with the square of the rounds: 500 rounds ≈ 120 MB) opens as
 * fast as a short one: the page draws the graph from this small JSON and fetches a span
 * only when one is selected.
 */
export class SavedGraphCache {
  private readonly graphs = new Map<string, string>();
  private readonly spans = new Map<string, Map<string, Span>>();
  private warming: Promise<void> = Promise.resolve();

  private readonly builderVersion: number;

  constructor(private readonly options: { store: TraceStore; savedDir: string; cacheDir: string; builderVersion?: number }) {
    this.builderVersion = options.builderVersion ?? GRAPH_BUILDER_VERSION;
  }

  /**
   * The cache key of a file version: its name, size and modification time, and the version of
   * the graph builder (a graph an older builder computed is never served).
   */
  private async versionKey(file: string): Promise<{ name: string; key: string }> {
    const name = savedTraceFileName(file, { allowJsonl: true });
    const stats = await stat(path.join(this.options.savedDir, name)).catch((error: unknown) => {
      throw new LoopscopeError('NOT_FOUND', `No saved trace file named ${name}.`, { cause: error });
    });
    return { name, key: createHash('sha256').update(`${name}\0${stats.size}\0${stats.mtimeMs}\0${this.builderVersion}`).digest('hex').slice(0, 32) };
  }

  private remember<T>({ map, key, value, limit }: { map: Map<string, T>; key: string; value: T; limit: number }): void {
    map.delete(key);
    map.set(key, value);
    while (map.size > limit) map.delete(map.keys().next().value as string);
  }

  private async loadSpans(name: string, key: string): Promise<Map<string, Span>> {
    const cached = this.spans.get(key);
    if (cached) return cached;
    const byId = new Map<string, Span>();
    for (const span of await this.options.store.loadSaved(name)) byId.set(`${span.traceId}:${span.spanId}`, span);
    this.remember({ map: this.spans, key, value: byId, limit: MEMORY_SPAN_FILES });
    return byId;
  }

  /** The Graph JSON text of a saved file (computed and stored on first use of this version). */
  async graphJson(file: string): Promise<string> {
    const { name, key } = await this.versionKey(file);
    const inMemory = this.graphs.get(key);
    if (inMemory) return inMemory;
    const diskPath = path.join(this.options.cacheDir, `${key}.graph.json`);
    let text = await readFile(diskPath, 'utf8').catch(() => undefined);
    if (text === undefined) {
      const spans = await this.loadSpans(name, key);
      text = JSON.stringify(buildRunGraph([...spans.values()]));
      await mkdir(this.options.cacheDir, { recursive: true });
      await writeFileAtomic(diskPath, text, { durable: false });
    }
    this.remember({ map: this.graphs, key, value: text, limit: MEMORY_GRAPHS });
    return text;
  }

  /** One span of a saved file, for the detail panel. */
  async span({ file, traceId, spanId }: { file: string; traceId: string; spanId: string }): Promise<Span | undefined> {
    const { name, key } = await this.versionKey(file);
    return (await this.loadSpans(name, key)).get(`${traceId}:${spanId}`);
  }

  /** Computes missing graphs in the background, one file at a time (after a listing). */
  prewarm(files: string[]): void {
    this.warming = this.warming.then(async () => {
      for (const file of files) await this.graphJson(file).catch(() => undefined);
    });
  }
}
