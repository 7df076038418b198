package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/core/tracing"
	"github.com/firebase/genkit/go/genkit"
	"github.com/firebase/genkit/go/plugins/middleware"
	"go.opentelemetry.io/otel/trace"

	tools "loopscope.local/tools"
)

// A replay of a genkit Go recording (docs/interrupt-model.md, "Replaying genkit Go recordings"):
// each recorded generate is run again by genkit Go's own loop (genkit.GenerateWithRequest with the
// recorded GenerateActionOptions — the very value genkit.Generate builds and records as the
// generate span's input), on a genkit instance of its own whose models are replay models defined
// with genkit Go's model API and whose tools are stubs (or the real tools of tools/go/ with
// --live-tools). Every model request and tool call is handed to Loopscope (a `replay-call` line)
// which compares it with the recording and says what to answer (a `replay-answer` line): the
// comparison and the divergences are Loopscope's one replay session (lib/replay/replay-session.ts),
// the same as for genkit JS and the AI SDK.

// replayToolDefinition is a tool as the recorded model requests offered it.
type replayToolDefinition struct {
	Name         string         `json:"name"`
	Description  string         `json:"description,omitempty"`
	InputSchema  map[string]any `json:"inputSchema,omitempty"`
	OutputSchema map[string]any `json:"outputSchema,omitempty"`
	// The definition's metadata: `multipart` says which kind of tool sent it (a typed interruptible tool is multipart).
	Metadata map[string]any `json:"metadata,omitempty"`
}

type replayStepCommand struct {
	RequestID string `json:"requestId"`
	// The recorded generate's input (genkit Go's GenerateActionOptions), its messages already the
	// history this replay sends (the replayed parent's for a resume).
	Options   json.RawMessage        `json:"options"`
	Models    []string               `json:"models"`
	Tools     []replayToolDefinition `json:"tools"`
	LiveTools bool                   `json:"liveTools,omitempty"`
	// The replayed generate this one answers (a resume), and the recorded generate it replays: OTel links.
	Answers *SpanRef `json:"answers,omitempty"`
	Replays *SpanRef `json:"replays,omitempty"`
}

type replayAnswerCommand struct {
	CallID   string          `json:"callId"`
	Response json.RawMessage `json:"response,omitempty"`
	Outcome  *toolOutcome    `json:"outcome,omitempty"`
	Run      bool            `json:"run,omitempty"`
	Error    *string         `json:"error,omitempty"`
}

// toolOutcome is how a tool call ended, as lib/loop/recorded-calls.ts says it.
type toolOutcome struct {
	Kind     string `json:"kind"`
	Output   any    `json:"output,omitempty"`
	Metadata any    `json:"metadata,omitempty"`
	Message  string `json:"message,omitempty"`
}

type replayStepResult struct {
	result
	// The message the generate ended with (what the replay compares with the recorded one).
	Message *ai.Message `json:"message,omitempty"`
}

// replayer runs replay steps, each in a goroutine of its own so that the command loop keeps
// reading the answers to its calls.
type replayer struct {
	send  func(any)
	flush func(context.Context) error
	mu    sync.Mutex
	// Replay instances by what they define: a genkit instance per distinct set of models and tools.
	instances map[string]*genkit.Genkit
	waiting   map[string]chan replayAnswerCommand
	calls     atomic.Int64
}

func newReplayer(send func(any), flush func(context.Context) error) *replayer {
	return &replayer{send: send, flush: flush, instances: map[string]*genkit.Genkit{}, waiting: map[string]chan replayAnswerCommand{}}
}

// handle takes a `replay-step` or `replay-answer` line.
func (r *replayer) handle(ctx context.Context, kind string, line []byte) {
	switch kind {
	case "replay-answer":
		var answer replayAnswerCommand
		if err := json.Unmarshal(line, &answer); err != nil {
			return
		}
		r.mu.Lock()
		waiting, ok := r.waiting[answer.CallID]
		delete(r.waiting, answer.CallID)
		r.mu.Unlock()
		if ok {
			waiting <- answer
		}
	case "replay-step":
		var step replayStepCommand
		if err := json.Unmarshal(line, &step); err != nil {
			var id struct {
				RequestID string `json:"requestId"`
			}
			_ = json.Unmarshal(line, &id)
			r.send(replayStepResult{result: result{Type: "result", RequestID: id.RequestID, TraceIDs: []string{}, Failure: &failure{Message: fmt.Sprintf("the replay step is not valid: %v", err), Status: "INVALID_ARGUMENT"}}})
			return
		}
		go func() {
			answer := r.step(ctx, step)
			// Every span of the step is exported before its result is told.
			_ = r.flush(ctx)
			r.send(answer)
		}()
	}
}

type replayStepKey struct{}

// replayStepState is what a replay model or stub tool needs to ask Loopscope: its step's request id.
type replayStepState struct {
	requestID string
	replayer  *replayer
}

// ask sends a `replay-call` and waits for its answer; an answer with an error is that error.
func (s *replayStepState) ask(ctx context.Context, call map[string]any) (replayAnswerCommand, error) {
	id := "c" + strconv.FormatInt(s.replayer.calls.Add(1), 10)
	answered := make(chan replayAnswerCommand, 1)
	s.replayer.mu.Lock()
	s.replayer.waiting[id] = answered
	s.replayer.mu.Unlock()
	call["type"] = "replay-call"
	call["requestId"] = s.requestID
	call["callId"] = id
	if span := trace.SpanFromContext(ctx).SpanContext(); span.IsValid() {
		call["span"] = SpanRef{TraceID: span.TraceID().String(), SpanID: span.SpanID().String()}
	}
	s.replayer.send(call)
	select {
	case answer := <-answered:
		if answer.Error != nil {
			return answer, errors.New(*answer.Error)
		}
		return answer, nil
	case <-ctx.Done():
		return replayAnswerCommand{}, ctx.Err()
	}
}

func stateOf(ctx context.Context) (*replayStepState, error) {
	state, ok := ctx.Value(replayStepKey{}).(*replayStepState)
	if !ok {
		return nil, errors.New("a replay model or tool was called outside a replay")
	}
	return state, nil
}

func (r *replayer) step(ctx context.Context, cmd replayStepCommand) replayStepResult {
	answer := replayStepResult{result: result{Type: "result", RequestID: cmd.RequestID, TraceIDs: []string{}}}
	var options ai.GenerateActionOptions
	if err := json.Unmarshal(cmd.Options, &options); err != nil {
		answer.Failure = &failure{Message: fmt.Sprintf("the recorded generate options are not genkit Go's GenerateActionOptions: %v", err), Status: "INVALID_ARGUMENT"}
		return answer
	}
	g, err := r.instance(cmd)
	if err != nil {
		answer.Failure = &failure{Message: err.Error(), Status: "INVALID_ARGUMENT"}
		return answer
	}
	if cmd.LiveTools {
		options.Use = append(options.Use, &ai.MiddlewareRef{Name: "loopscope/replay-compare", Config: liveToolsCompare()})
	}
	var seen sync.Mutex
	roots := map[string]string{}
	ctx = context.WithValue(ctx, replayStepKey{}, &replayStepState{requestID: cmd.RequestID, replayer: r})
	ctx = withReplays(withAnswers(ctx, cmd.Answers), cmd.Replays)
	ctx = tracing.WithTelemetryCallback(ctx, func(traceID, spanID string) {
		seen.Lock()
		defer seen.Unlock()
		if _, known := roots[traceID]; known {
			return
		}
		roots[traceID] = spanID
		answer.TraceIDs = append(answer.TraceIDs, traceID)
	})
	response, err := genkit.GenerateWithRequest(ctx, g, &options, nil, nil)
	if len(answer.TraceIDs) > 0 {
		answer.TraceID = answer.TraceIDs[len(answer.TraceIDs)-1]
		answer.RootSpan = &SpanRef{TraceID: answer.TraceID, SpanID: roots[answer.TraceID]}
	}
	if err != nil {
		answer.Failure = &failure{Message: err.Error(), Status: statusOf(err)}
		return answer
	}
	answer.Outcome = outcomeOf(response)
	answer.Message = response.Message
	return answer
}

// instance is the genkit instance that defines the step's replay models and tools (made once per set).
func (r *replayer) instance(cmd replayStepCommand) (*genkit.Genkit, error) {
	key, err := json.Marshal([]any{cmd.Models, cmd.Tools, cmd.LiveTools})
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if g, ok := r.instances[string(key)]; ok {
		return g, nil
	}
	// genkit.Init per set: a stub must not meet a registered tool of the same name (genkit Go
	// resolves a tool by name from its registry first), and a replay model must not meet a
	// scenario's scripted model of the same name.
	// WithExperimental: as the runner's own instance (the typed interrupts of tools/go, genkit/exp).
	// The middleware plugin registers genkit Go's own middleware (ToolApproval, …): a recorded
	// generate's `use` names them, and genkit resolves them by name with their recorded config.
	g := genkit.Init(context.Background(), genkit.WithExperimental(), genkit.WithPlugins(&middleware.Middleware{}))
	for _, name := range cmd.Models {
		defineReplayModel(g, name)
	}
	if cmd.LiveTools {
		tools.Register(g)
	} else {
		for _, definition := range cmd.Tools {
			defineStubTool(g, definition)
		}
	}
	if len(r.instances) >= 16 {
		r.instances = map[string]*genkit.Genkit{}
	}
	r.instances[string(key)] = g
	return g, nil
}

// defineReplayModel defines a model of the recorded name that answers each request with what
// Loopscope's replay session says: the recorded response of that call, after comparing the request.
func defineReplayModel(g *genkit.Genkit, name string) {
	genkit.DefineModel(g, name, &ai.ModelOptions{
		Label:    "Replay of " + name,
		Supports: &ai.ModelSupports{Tools: true, Multiturn: true, SystemRole: true, Media: true},
	}, func(ctx context.Context, request *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		state, err := stateOf(ctx)
		if err != nil {
			return nil, err
		}
		answer, err := state.ask(ctx, map[string]any{"call": "model", "request": request})
		if err != nil {
			return nil, err
		}
		var response ai.ModelResponse
		if err := json.Unmarshal(answer.Response, &response); err != nil {
			return nil, fmt.Errorf("the recorded model response is not a genkit Go ModelResponse: %w", err)
		}
		response.Request = request
		return &response, nil
	})
}

// defineStubTool defines a tool with the recorded definition that plays back the recorded call
// Loopscope's replay session picks for its input: an output, an interrupt, or an error.
func defineStubTool(g *genkit.Genkit, definition replayToolDefinition) {
	options := []ai.ToolOption{}
	if definition.InputSchema != nil {
		options = append(options, ai.WithInputSchema(definition.InputSchema))
	}
	if definition.OutputSchema != nil {
		options = append(options, ai.WithOutputSchema(definition.OutputSchema))
	}
	stub := func(tc *ai.ToolContext, input any) (any, error) {
		state, err := stateOf(tc.Context)
		if err != nil {
			return nil, err
		}
		answer, err := state.ask(tc.Context, map[string]any{"call": "tool", "name": definition.Name, "input": input})
		if err != nil {
			return nil, err
		}
		return playBack(tc, answer.Outcome)
	}
	// The model is sent each tool's definition, `multipart` included: the stub is of the recorded kind.
	if multipart, _ := definition.Metadata["multipart"].(bool); multipart {
		genkit.DefineMultipartTool(g, definition.Name, definition.Description, func(tc *ai.ToolContext, input any) (*ai.MultipartToolResponse, error) {
			output, err := stub(tc, input)
			if err != nil {
				return nil, err
			}
			return &ai.MultipartToolResponse{Output: output}, nil
		}, options...)
		return
	}
	genkit.DefineTool(g, definition.Name, definition.Description, stub, options...)
}

// playBack ends a tool call as recorded.
func playBack(tc *ai.ToolContext, outcome *toolOutcome) (any, error) {
	if outcome == nil {
		return nil, errors.New("the replay gave this tool call no recorded outcome")
	}
	switch outcome.Kind {
	case "interrupt":
		metadata, _ := outcome.Metadata.(map[string]any)
		return nil, tc.Interrupt(&ai.InterruptOptions{Metadata: metadata})
	case "error":
		return nil, errors.New(outcome.Message)
	default:
		return outcome.Output, nil
	}
}

// liveToolsCompare is the replay's WrapTool hook for --live-tools: each execution of a real tool
// is matched with the recording before it runs (a fork may answer it instead) and compared after.
func liveToolsCompare() ai.MiddlewareFunc {
	return func(context.Context) (*ai.Hooks, error) {
		return &ai.Hooks{WrapTool: func(ctx context.Context, params *ai.ToolParams, next ai.ToolNext) (*ai.MultipartToolResponse, error) {
			state, err := stateOf(ctx)
			if err != nil {
				return nil, err
			}
			before, err := state.ask(ctx, map[string]any{"call": "tool", "live": true, "name": params.Request.Name, "input": params.Request.Input})
			if err != nil {
				return nil, err
			}
			if !before.Run && before.Outcome != nil && before.Outcome.Kind == "output" {
				return &ai.MultipartToolResponse{Output: before.Outcome.Output}, nil
			}
			response, runErr := next(ctx, params)
			actual := toolOutcome{Kind: "output"}
			if interrupted, metadata := ai.IsToolInterruptError(runErr); interrupted {
				actual = toolOutcome{Kind: "interrupt", Metadata: metadata}
			} else if runErr != nil {
				actual = toolOutcome{Kind: "error", Message: recordedMessage(runErr, params.Request.Name)}
			} else if response != nil {
				actual.Output = response.Output
			}
			if _, err := state.ask(ctx, map[string]any{"call": "tool-outcome", "of": before.CallID, "name": params.Request.Name, "outcome": actual}); err != nil {
				return nil, err
			}
			return response, runErr
		}}, nil
	}
}

// recordedMessage is a failed tool's error as its tool span records it: the hook sees it wrapped by
// ToolAction.RunRawMultipart ("error calling tool NAME: …"), the span holds the action's own error.
func recordedMessage(err error, name string) string {
	if inner := errors.Unwrap(err); inner != nil && strings.HasPrefix(err.Error(), "error calling tool "+name+": ") {
		return inner.Error()
	}
	return err.Error()
}
