// Command go-bench-bare is the bare side of bench/go-capture-overhead.bench.ts: the benchmark loop
// played by plain genkit Go — the same genkit.Generate options as Loopscope's Go runner
// (go/runner/generate.go), the tools of tools/go/ and a scripted model that answers as the
// runner's does — with spans going to an in-memory exporter instead of over OTLP. No runner
// protocol, no scenario re-read, no export: what a Go app pays for genkit and its spans alone.
//
// It reads one JSON line per batch on stdin, {"runs": N}, runs N generates and answers with one
// JSON line, {"perRunMs": [...], "spans": S} (S: spans recorded by the batch), so the benchmark
// can interleave its batches with the runner's in one process lifetime.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	tools "loopscope.local/tools"
)

// scenario is the part of a Go scenario file (go/runner/scenario.go) the benchmark loop needs.
type scenario struct {
	Name     string `json:"name"`
	Prompt   string `json:"prompt"`
	Tools    []string
	MaxTurns int `json:"maxTurns"`
	Script   []struct {
		Text         string `json:"text"`
		ToolRequests []struct {
			Name  string `json:"name"`
			Ref   string `json:"ref"`
			Input any    `json:"input"`
		} `json:"toolRequests"`
	} `json:"script"`
}

type batch struct {
	Runs int `json:"runs"`
}

type batchResult struct {
	PerRunMs []float64 `json:"perRunMs"`
	Spans    int       `json:"spans"`
	Failure  string    `json:"failure,omitempty"`
}

func main() {
	scenarioPath := flag.String("scenario", "", "the Go scenario file to play")
	flag.Parse()
	loaded, err := loadScenario(*scenarioPath)
	if err != nil {
		fail(err)
	}
	ctx := context.Background()
	exporter := tracetest.NewInMemoryExporter()
	provider := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))
	defer provider.Shutdown(ctx)
	// genkit binds its tracer to the global provider on first use: it is set before Init (as in the runner).
	otel.SetTracerProvider(provider)
	// WithExperimental, as in the runner: tools/go's typed interrupts (genkit/exp) need it.
	g := genkit.Init(ctx, genkit.WithExperimental())
	registered := tools.Register(g)
	options := []ai.GenerateOption{ai.WithModel(defineScriptedModel(g, loaded)), ai.WithPrompt(loaded.Prompt)}
	var offered []ai.ToolRef
	for _, name := range loaded.Tools {
		defined, ok := registered[name]
		if !ok {
			fail(fmt.Errorf("scenario %s offers %q, which tools/go/ does not define", loaded.Name, name))
		}
		offered = append(offered, defined.Tool)
	}
	options = append(options, ai.WithTools(offered...))
	if loaded.MaxTurns > 0 {
		options = append(options, ai.WithMaxTurns(loaded.MaxTurns))
	}

	out := json.NewEncoder(os.Stdout)
	lines := bufio.NewScanner(os.Stdin)
	for lines.Scan() {
		var request batch
		if err := json.Unmarshal(lines.Bytes(), &request); err != nil {
			fail(fmt.Errorf("not a batch request: %w", err))
		}
		answer := batchResult{PerRunMs: []float64{}}
		exporter.Reset()
		for range request.Runs {
			start := time.Now()
			response, err := genkit.Generate(ctx, g, options...)
			elapsed := time.Since(start)
			if err == nil && response.FinishReason != ai.FinishReasonStop {
				err = fmt.Errorf("the loop ended %q, not %q", response.FinishReason, ai.FinishReasonStop)
			}
			if err != nil {
				answer.Failure = err.Error()
				break
			}
			answer.PerRunMs = append(answer.PerRunMs, float64(elapsed.Nanoseconds())/1e6)
		}
		answer.Spans = len(exporter.GetSpans())
		if err := out.Encode(answer); err != nil {
			fail(err)
		}
	}
}

func loadScenario(path string) (*scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var loaded scenario
	if err := json.Unmarshal(data, &loaded); err != nil {
		return nil, fmt.Errorf("%s is not a scenario: %w", path, err)
	}
	for _, turn := range loaded.Script {
		// The runner fills {{NAME#REF}} from the history; this copy does not, so it refuses them.
		if strings.Contains(turn.Text, "{{") {
			return nil, fmt.Errorf("%s: the bare loop does not fill {{…}} references; use plain text", path)
		}
	}
	return &loaded, nil
}

// defineScriptedModel answers as the runner's scripted model (go/runner/scripted_model.go): turn N
// of the script answers the request whose history holds N model messages.
func defineScriptedModel(g *genkit.Genkit, loaded *scenario) ai.Model {
	return genkit.DefineModel(g, "scripted/"+loaded.Name, &ai.ModelOptions{
		Label:    "Scripted model of " + loaded.Name,
		Supports: &ai.ModelSupports{Tools: true, Multiturn: true, SystemRole: true},
	}, func(ctx context.Context, request *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		turn := 0
		for _, message := range request.Messages {
			if message.Role == ai.RoleModel {
				turn++
			}
		}
		if turn >= len(loaded.Script) {
			return nil, fmt.Errorf("scenario %q has %d scripted turn(s); the model was asked for turn %d", loaded.Name, len(loaded.Script), turn+1)
		}
		script := loaded.Script[turn]
		message := &ai.Message{Role: ai.RoleModel}
		if script.Text != "" {
			message.Content = append(message.Content, ai.NewTextPart(script.Text))
		}
		for _, call := range script.ToolRequests {
			message.Content = append(message.Content, ai.NewToolRequestPart(&ai.ToolRequest{Name: call.Name, Ref: call.Ref, Input: call.Input}))
		}
		return &ai.ModelResponse{Message: message, FinishReason: ai.FinishReasonStop, Request: request}, nil
	})
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "go-bench-bare: %v\n", err)
	os.Exit(1)
}
