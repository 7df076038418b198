import { readdirSync } from 'node:fs';
import path from 'node:path';
import { loadTraceFile } from '../../store/load-trace-file';
import { buildRunGraph } from '../build-run-graph';

/** Every committed trace file whose Graph JSON is pinned, with the golden file's name. */
export function goldenSources(projectDir = process.cwd()): { file: string; golden: string }[] {
  const list = ({ folder, suffix, prefix }: { folder: string; suffix: string; prefix: string }) =>
    readdirSync(path.join(projectDir, folder))
      .filter((name) => name.endsWith(suffix))
      .sort()
      .map((name) => ({ file: path.join(projectDir, folder, name), golden: `${prefix}${name.slice(0, -suffix.length)}.graph.json` }));
  return [
    ...list({ folder: 'lib/graph/__fixtures__', suffix: '.otlp.json', prefix: 'fixture-' }),
    ...list({ folder: 'traces', suffix: '.json', prefix: 'traces-' }),
    // Pydantic AI's and the OpenAI Agents SDK's recorded fixtures (scripts/fixtures/frameworks/), by the runtime that recorded them.
    ...list({ folder: 'lib/runtimes/pydantic-ai/__fixtures__', suffix: '.otlp.json', prefix: 'pydantic-ai-' }),
    ...list({ folder: 'lib/runtimes/openai-agents/__fixtures__', suffix: '.otlp.json', prefix: 'openai-agents-' }),
    // Other runtimes' fixtures, by the dialect folder that reads them.
    ...list({ folder: 'lib/runtimes/ai-sdk/__fixtures__', suffix: '.otlp.json', prefix: 'dialect-' }),
    ...list({ folder: 'lib/runtimes/otel-genai/__fixtures__', suffix: '.otlp.json', prefix: 'otel-genai-' }),
    ...list({ folder: 'lib/runtimes/genkit-go/__fixtures__', suffix: '.otlp.json', prefix: 'genkit-go-' }),
    // The agent frameworks' recorded fixtures (scripts/fixtures/frameworks/), by the runtime that recorded them.
    ...list({ folder: 'lib/runtimes/google-adk/__fixtures__', suffix: '.otlp.json', prefix: 'google-adk-' }),
    ...list({ folder: 'lib/runtimes/langgraph/__fixtures__', suffix: '.otlp.json', prefix: 'langgraph-' }),
    ...list({ folder: 'lib/runtimes/strands/__fixtures__', suffix: '.otlp.json', prefix: 'strands-' }),
    ...list({ folder: 'lib/runtimes/mastra/__fixtures__', suffix: '.otlp.json', prefix: 'mastra-' }),
  ];
}

/** The golden text of one trace file: its whole Graph JSON (summary, generates, nodes, edges), one value per line. */
export async function goldenText(file: string): Promise<string> {
  return `${JSON.stringify(buildRunGraph(await loadTraceFile(file)), null, 1)}\n`;
}
