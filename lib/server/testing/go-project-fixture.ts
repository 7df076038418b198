import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A copy of the project's genkit Go runner (go/runner/) and Go tools (tools/go/, its scenarios
 * included) in the OS temp dir, with more tools compiled in and more scenarios: for tools that
 * must not live in tools/go/ (they hang). `GoRunnerService({ projectDir: root })` builds and runs
 * it as the server runs the project's (the module cache makes the build incremental).
 */
export interface GoProjectFixture {
  root: string;
  remove(): Promise<void>;
}

async function copyFolder({ from, to, keep }: { from: string; to: string; keep: (file: string) => boolean }): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const file of await readdir(from)) if (keep(file)) await copyFile(path.join(from, file), path.join(to, file));
}

export async function makeGoProjectFixture(options: {
  /** Go files for package tools (tools/go/), by file name. */
  tools: Record<string, string>;
  /** Entries added to Register's list in tools/go/tools.go, e.g. `{Tool: defineGenerateReport(g)}`. */
  register: string[];
  scenarios: Record<string, unknown>;
}): Promise<GoProjectFixture> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'loopscope-go-fixture-'));
  const project = process.cwd();
  const goSource = (file: string) => /\.go$|^go\.(mod|sum)$/.test(file);
  await copyFolder({ from: path.join(project, 'go', 'runner'), to: path.join(root, 'go', 'runner'), keep: goSource });
  await copyFolder({ from: path.join(project, 'tools', 'go'), to: path.join(root, 'tools', 'go'), keep: goSource });
  await copyFolder({ from: path.join(project, 'tools', 'go', 'scenarios'), to: path.join(root, 'tools', 'go', 'scenarios'), keep: (file) => file.endsWith('.json') });
  const registry = path.join(root, 'tools', 'go', 'tools.go');
  const source = await readFile(registry, 'utf8');
  const anchor = '\t} {\n\t\ttools[defined.Tool.Name()] = defined';
  if (!source.includes(anchor)) throw new Error('tools/go/tools.go changed: the fixture cannot add its tools to Register');
  await writeFile(registry, source.replace(anchor, `${options.register.map((entry) => `\t\t${entry},\n`).join('')}${anchor}`));
  for (const [file, text] of Object.entries(options.tools)) await writeFile(path.join(root, 'tools', 'go', file), text);
  for (const [name, scenario] of Object.entries(options.scenarios)) {
    await writeFile(path.join(root, 'tools', 'go', 'scenarios', `${name}.json`), JSON.stringify({ name, runtime: 'genkit-go', ...(scenario as object) }, null, 2));
  }
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}

/**
 * A genkit Go tool that hangs: it writes the file named in its input (a test sees it began),
 * then sleeps `seconds` without looking at its context.
 */
export const GO_HANG_TOOL = `package tools

import (
	"os"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

type ReportInput struct {
	Seconds     float64 \`json:"seconds"\`
	StartedFile string  \`json:"startedFile"\`
}

type Report struct {
	Rows float64 \`json:"rows"\`
}

func defineGenerateReport(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "generateReport", "Builds a slow report.", func(ctx *ai.ToolContext, in ReportInput) (Report, error) {
		_ = os.WriteFile(in.StartedFile, []byte("started"), 0o600)
		time.Sleep(time.Duration(in.Seconds * float64(time.Second)))
		return Report{Rows: 42}, nil
	})
}
`;
