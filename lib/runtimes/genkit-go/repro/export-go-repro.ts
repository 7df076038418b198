/**
 * Writes a genkit Go recording as one standalone Go program that reproduces the run with genkit
 * Go alone (github.com/firebase/genkit/go v1.12.0) — to attach to a bug report. It follows the Go
 * replay's rules (lib/runtimes/genkit-go/replay/replay-go.ts, go/runner/replay.go): each recorded generate
 * runs again through genkit.GenerateWithRequest with its recorded GenerateActionOptions; a model of
 * the recorded name answers that generate's model calls with the recorded answers, in order; stub
 * tools with the recorded definitions play back the recorded run with the same input (an output,
 * an interrupt, an error); a resume whose parent is in the recording sends its parent's history
 * with its recorded resume parts. It compares nothing: it prints how each call ended, beside how it
 * ended in the recording.
 *
 * Recorded data reaches the file only as one Go string literal of JSON (`goStringLiteral`), never
 * in a comment or an identifier.
 */
import type { Recording } from '../../genkit-js/read/recording';
import { describeOutcome } from '../../../replay/replay-report';
import { reproFileName } from '../../../replay/repro-file-name';

export interface ExportGoReproOptions {
  title?: string;
  /** Where the recording came from (a file path). */
  source?: string;
  /** The name the file will be saved under (default `main.go`). */
  fileName?: string;
}

/** `repro-<recording>.go`: the genkit repro's name with Go's extension. */
export function goReproFileName(source: string | undefined): string {
  return reproFileName(source, '.go');
}

/** A Go interpreted string literal holding `text` exactly (lone surrogates, which Go source cannot hold, become U+FFFD). */
export function goStringLiteral(text: string): string {
  // JSON's escapes (\" \\ \n \r \t \b \f \u00XX) are Go's too; the rest of the text is valid UTF-8.
  return JSON.stringify(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

/** What the program plays back, as JSON: the steps with their options, answers and tool runs. */
function recordedData(recording: Recording, options: ExportGoReproOptions): unknown {
  return {
    ...(options.title ? { title: options.title } : {}),
    source: options.source ?? 'a recording',
    models: [...recording.models].sort(),
    tools: [...recording.toolDefinitions.values()].map((tool) => ({ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, multipart: tool.metadata?.multipart === true })),
    steps: recording.steps.map((step) => ({
      label: step.label,
      recorded: describeOutcome(step.outcome),
      ...(step.kind === 'generate'
        ? {
            options: step.options.resume !== undefined && step.continues === undefined ? { ...step.options, messages: step.history ?? step.options.messages } : step.options,
            ...(step.continues !== undefined ? { continues: step.continues } : {}),
            answers: step.modelCalls.map((call) => {
              if (call.errorMessage !== undefined) return { error: call.errorMessage };
              const { latencyMs: _latency, ...response } = call.response ?? {};
              return { response };
            }),
          }
        : { toolAlone: step.name }),
      toolRuns: step.toolExecutions.map((execution) => ({ name: execution.name, input: execution.input, outcome: execution.outcome })),
    })),
  };
}

const PLAIN_FILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** The standalone Go program (package main) reproducing the recording. */
export function exportGoRepro(recording: Recording, options: ExportGoReproOptions = {}): string {
  const fileName = options.fileName ?? 'main.go';
  const shown = PLAIN_FILE_NAME.test(fileName) ? fileName : 'this file';
  const steps = recording.steps.length;
  return `// Repro of a genkit Go run recorded by Loopscope: ${steps} call${steps === 1 ? '' : 's'}, ${recording.spanCount} spans.
// Where it came from and how each call ended are in the recorded JSON below.
//
// It makes the recorded calls again with genkit Go's own loop and nothing else: a model answers
// each model call with the recorded answer, in order, and the tools are stubs that return,
// interrupt or fail as they did in the recording.
//
// Run it in a folder of its own (Go 1.24 or newer):
//   go mod init repro && go get github.com/firebase/genkit/go@v1.12.0 && go run ${shown}
//
// It prints one line per call: how it ended now, and in the recording.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/firebase/genkit/go/plugins/middleware"
)

const recordedJSON = ${goStringLiteral(JSON.stringify(recordedData(recording, options)))}

type toolRun struct {
	Name    string \`json:"name"\`
	Input   any    \`json:"input"\`
	Outcome struct {
		Kind     string \`json:"kind"\`
		Output   any    \`json:"output"\`
		Metadata any    \`json:"metadata"\`
		Message  string \`json:"message"\`
	} \`json:"outcome"\`
	used bool
}

type recordedStep struct {
	Label     string          \`json:"label"\`
	Recorded  string          \`json:"recorded"\`
	Options   json.RawMessage \`json:"options"\`
	Continues *int            \`json:"continues"\`
	ToolAlone string          \`json:"toolAlone"\`
	Answers   []struct {
		Response json.RawMessage \`json:"response"\`
		Error    *string         \`json:"error"\`
	} \`json:"answers"\`
	ToolRuns []*toolRun \`json:"toolRuns"\`
}

type recordedRun struct {
	Models []string \`json:"models"\`
	Tools  []struct {
		Name         string         \`json:"name"\`
		Description  string         \`json:"description"\`
		InputSchema  map[string]any \`json:"inputSchema"\`
		OutputSchema map[string]any \`json:"outputSchema"\`
		Multipart    bool           \`json:"multipart"\`
	} \`json:"tools"\`
	Steps []*recordedStep \`json:"steps"\`
}

// The step being played and how many of its model answers were given.
var (
	current  *recordedStep
	answered int
)

// sameJSON compares two values as JSON (a recorded input with the one the loop passes).
func sameJSON(a, b any) bool {
	var x, y any
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return json.Unmarshal(ja, &x) == nil && json.Unmarshal(jb, &y) == nil && reflect.DeepEqual(x, y)
}

// takeRun is the step's recorded run of the tool with this input, else its next run of the tool.
func takeRun(name string, input any) *toolRun {
	var next *toolRun
	for _, run := range current.ToolRuns {
		if run.used || run.Name != name {
			continue
		}
		if sameJSON(run.Input, input) {
			run.used = true
			return run
		}
		if next == nil {
			next = run
		}
	}
	if next != nil {
		next.used = true
	}
	return next
}

func outcomeOf(response *ai.ModelResponse, err error) string {
	if err != nil {
		return "failed: " + strings.SplitN(err.Error(), "\\n", 2)[0]
	}
	if response.FinishReason == ai.FinishReasonInterrupted {
		return "interrupted (paused for an answer)"
	}
	return fmt.Sprintf("finished (%s)", response.FinishReason)
}

func main() {
	ctx := context.Background()
	var run recordedRun
	if err := json.Unmarshal([]byte(recordedJSON), &run); err != nil {
		fmt.Fprintln(os.Stderr, "the recorded JSON does not read:", err)
		os.Exit(2)
	}
	// genkit Go's own middleware (ToolApproval, …), which a recorded generate's \`use\` may name.
	g := genkit.Init(ctx, genkit.WithExperimental(), genkit.WithPlugins(&middleware.Middleware{}))
	for _, name := range run.Models {
		genkit.DefineModel(g, name, &ai.ModelOptions{Supports: &ai.ModelSupports{Tools: true, Multiturn: true, SystemRole: true, Media: true}},
			func(ctx context.Context, request *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
				if answered >= len(current.Answers) {
					return nil, fmt.Errorf("the recording has %d model call(s) in %s", len(current.Answers), current.Label)
				}
				answer := current.Answers[answered]
				answered++
				if answer.Error != nil {
					return nil, errors.New(*answer.Error)
				}
				var response ai.ModelResponse
				if err := json.Unmarshal(answer.Response, &response); err != nil {
					return nil, err
				}
				response.Request = request
				return &response, nil
			})
	}
	for _, tool := range run.Tools {
		name := tool.Name
		options := []ai.ToolOption{}
		if tool.InputSchema != nil {
			options = append(options, ai.WithInputSchema(tool.InputSchema))
		}
		if tool.OutputSchema != nil {
			options = append(options, ai.WithOutputSchema(tool.OutputSchema))
		}
		stub := func(tc *ai.ToolContext, input any) (any, error) {
			recorded := takeRun(name, input)
			if recorded == nil {
				return nil, fmt.Errorf("the recording never ran %s here", name)
			}
			switch recorded.Outcome.Kind {
			case "interrupt":
				metadata, _ := recorded.Outcome.Metadata.(map[string]any)
				return nil, tc.Interrupt(&ai.InterruptOptions{Metadata: metadata})
			case "error":
				return nil, errors.New(recorded.Outcome.Message)
			}
			return recorded.Outcome.Output, nil
		}
		if !tool.Multipart {
			genkit.DefineTool(g, name, tool.Description, stub, options...)
			continue
		}
		genkit.DefineMultipartTool(g, name, tool.Description, func(tc *ai.ToolContext, input any) (*ai.MultipartToolResponse, error) {
			output, err := stub(tc, input)
			if err != nil {
				return nil, err
			}
			return &ai.MultipartToolResponse{Output: output}, nil
		}, options...)
	}
	histories := map[int][]*ai.Message{}
	for index, step := range run.Steps {
		current, answered = step, 0
		if step.ToolAlone != "" {
			fmt.Printf("%s: not run (a tool run on its own); recorded %s\\n", step.Label, step.Recorded)
			continue
		}
		var options ai.GenerateActionOptions
		if err := json.Unmarshal(step.Options, &options); err != nil {
			fmt.Printf("%s: the recorded options do not read: %v\\n", step.Label, err)
			continue
		}
		if step.Continues != nil && histories[*step.Continues] != nil {
			options.Messages = histories[*step.Continues]
		}
		response, err := genkit.GenerateWithRequest(ctx, g, &options, nil, nil)
		if err == nil {
			histories[index] = response.History()
		}
		fmt.Printf("%s: %s; recorded %s\\n", step.Label, outcomeOf(response, err), step.Recorded)
	}
}
`;
}
