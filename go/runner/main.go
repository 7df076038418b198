// Command go-runner is Loopscope's genkit Go runner: one genkit.Genkit instance with the tools
// of tools/go/ and a scripted model per Go scenario (tools/go/scenarios/), running generate
// calls and their resumes on request. Commands arrive as JSON lines on stdin and results leave
// as JSON lines on stdout (docs/architecture.md, "genkit Go"); its spans leave through the
// standard OTLP/HTTP exporter to LOOPSCOPE_OTLP_ENDPOINT, exported before each result is sent.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/firebase/genkit/go/genkit"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"

	tools "loopscope.local/tools"
)

type command struct {
	Type      string            `json:"type"`
	RequestID string            `json:"requestId"`
	Scenario  string            `json:"scenario"`
	Messages  []json.RawMessage `json:"messages,omitempty"`
	Resume    *Resume           `json:"resume,omitempty"`
	// For a resume: the interrupted generate it answers (recorded as an OTel link).
	Answers *SpanRef `json:"answers,omitempty"`
	// Step-by-step runs (step.go): a generate's run and mode; a decision for one of its pauses.
	RunID    string    `json:"runId,omitempty"`
	Mode     *runMode  `json:"mode,omitempty"`
	PauseID  string    `json:"pauseId,omitempty"`
	Decision *decision `json:"decision,omitempty"`
}

func main() {
	ctx := context.Background()
	provider, err := startTelemetry(ctx)
	if err != nil {
		fail(err)
	}
	defer provider.Shutdown(ctx)
	// genkit binds its tracer to the global provider on first use: it is set before Init.
	// WithExperimental: the typed interrupts of tools/go (genkit/exp DefineInterruptibleTool).
	g := genkit.Init(ctx, genkit.WithExperimental())
	scenariosDir := envOr("LOOPSCOPE_GO_SCENARIOS_DIR", filepath.Join("tools", "go", "scenarios"))
	runner := &runner{g: g, tools: tools.Register(g), scenariosDir: scenariosDir, models: map[string]bool{}, flush: provider.ForceFlush}
	runner.serve(ctx, os.Stdin, os.Stdout)
}

// serve is the command loop: it says ready, then answers each JSON line of in with JSON lines on
// out (the lines of lib/contract/go-runner-lines.ts), until in ends or a shutdown command comes.
// A generate or replay step runs on its own goroutine, so decisions for a paused one are read
// meanwhile; ping and the step commands are answered in the order they arrive.
func (r *runner) serve(ctx context.Context, in io.Reader, out io.Writer) {
	// One writer for every line (results, pauses, span starts, replay calls) from any goroutine.
	events.use(out)
	send := events.send
	replays := newReplayer(send, r.flush)
	send(map[string]any{"type": "ready", "pid": os.Getpid(), "tools": toolNames(r.tools), "toolInfo": describeTools(r.tools)})
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 1<<20), 64<<20)
	for lines.Scan() {
		var cmd command
		if err := json.Unmarshal(lines.Bytes(), &cmd); err != nil {
			// A command that names its request still gets an answer: the caller is waiting for it.
			var id struct {
				RequestID string `json:"requestId"`
			}
			if json.Unmarshal(lines.Bytes(), &id) == nil && id.RequestID != "" {
				send(result{Type: "result", RequestID: id.RequestID, TraceIDs: []string{}, Failure: &failure{Message: fmt.Sprintf("the command is not valid: %v", err), Status: "INVALID_ARGUMENT"}})
				continue
			}
			fmt.Fprintf(os.Stderr, "go-runner: ignored a malformed command: %v\n", err)
			continue
		}
		switch cmd.Type {
		case "ping":
			send(map[string]any{"type": "pong", "requestId": cmd.RequestID})
		case "generate":
			// Each call runs on its own, so decisions for a paused one (and Stop) are read meanwhile.
			go func(cmd command) {
				callCtx, call, forget := startStoppable(ctx, cmd)
				defer forget()
				callCtx, done := withStepping(callCtx, cmd, func() { _ = r.flush(ctx) })
				defer done()
				results := make(chan result, 1)
				go func() { results <- r.generate(callCtx, cmd) }()
				var answer result
				select {
				case answer = <-results:
				case why := <-call.abandoned:
					// Stopped with a tool running (stop.go): answered now; its goroutine is left behind.
					select {
					case answer = <-results:
					default:
						answer = call.stoppedResult(cmd.RequestID, why)
					}
				}
				call.settle()
				// Every span of the call is exported before its result is told.
				if err := r.flush(ctx); err != nil {
					fmt.Fprintf(os.Stderr, "go-runner: span export failed: %v\n", err)
				}
				send(answer)
			}(cmd)
		case "stop":
			reply := commandResult{Type: "command-result", RequestID: cmd.RequestID, OK: stopRun(cmd.RunID)}
			if !reply.OK {
				reply.Message = fmt.Sprintf("Run %s is not running in the genkit Go runner.", cmd.RunID)
			}
			send(reply)
		case "pause-decision", "set-mode":
			send(r.stepCommand(cmd))
		case "replay-step", "replay-answer":
			replays.handle(ctx, cmd.Type, append([]byte(nil), lines.Bytes()...))
		case "shutdown":
			return
		default:
			send(map[string]any{"type": "error", "requestId": cmd.RequestID, "message": fmt.Sprintf("unknown command %q", cmd.Type)})
		}
	}
}

func startTelemetry(ctx context.Context) (*sdktrace.TracerProvider, error) {
	options := []otlptracehttp.Option{}
	if endpoint := os.Getenv("LOOPSCOPE_OTLP_ENDPOINT"); endpoint != "" {
		options = append(options, otlptracehttp.WithEndpointURL(endpoint))
	}
	if token := os.Getenv("LOOPSCOPE_TOKEN"); token != "" {
		options = append(options, otlptracehttp.WithHeaders(map[string]string{"authorization": "Bearer " + token}))
	}
	exporter, err := otlptracehttp.New(ctx, options...)
	if err != nil {
		return nil, fmt.Errorf("the OTLP exporter could not start: %w", err)
	}
	return useTracerProvider(exporter)
}

// useTracerProvider makes the runner's tracer provider (its span processors, then the batching
// exporter) the global one.
func useTracerProvider(exporter sdktrace.SpanExporter) (*sdktrace.TracerProvider, error) {
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(envOr("OTEL_SERVICE_NAME", "loopscope-go-runner"))))
	if err != nil {
		return nil, err
	}
	provider := sdktrace.NewTracerProvider(
		sdktrace.WithSpanProcessor(linkProcessor{}),
		sdktrace.WithSpanProcessor(stoppableSpans{}),
		sdktrace.WithSpanProcessor(stepSpanProcessor{}),
		// What a call stopped without waiting for starts later is not exported (stop.go).
		sdktrace.WithSpanProcessor(exportUnlessAbandoned{next: sdktrace.NewBatchSpanProcessor(exporter)}),
		sdktrace.WithResource(res),
	)
	otel.SetTracerProvider(provider)
	return provider, nil
}

func envOr(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "go-runner: %v\n", err)
	os.Exit(1)
}
