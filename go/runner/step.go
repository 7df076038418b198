package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/core/status"
)

// Step-by-step Go runs (docs/architecture.md, "Step-by-step runs"): the same protocol as the
// JS runner (lib/contract/pause.ts, run-mode.ts) — a run's mode, pauses that list the decisions
// they take, decisions that end them — carried out by a genkit Go middleware (ai.WithUse) whose
// WrapModel and WrapTool hooks block until the decision arrives on stdin. The loop stays
// genkit Go's: the hooks only decide what one model call or one tool execution does.

// What genkit Go can do at its pauses. A model call: go on, be sent an edited request (WrapModel
// hands next a new ModelParams), be answered by hand (the loopscope/hand-written model), or fail.
// A tool: go on with its input or an edited one, be answered by hand, interrupt (a real genkit
// Go interrupt, as ToolApproval raises it) or fail (genkit Go fails the generate, as JS does).
var (
	goModelActions = []string{"continue", "edit-request", "replace-answer", "fail"}
	goToolActions  = []string{"continue", "edit-input", "answer", "interrupt", "fail"}
)

// runMode is lib/contract/run-mode.ts's RunMode.
type runMode struct {
	Kind        string `json:"kind"`
	Breakpoints *struct {
		Tools      []string   `json:"tools"`
		ModelTurns modelTurns `json:"modelTurns"`
	} `json:"breakpoints,omitempty"`
}

// modelTurns is "all" or the 1-based model calls to pause before, read once from the command.
type modelTurns struct {
	all   bool
	turns []int
}

func (m *modelTurns) UnmarshalJSON(data []byte) error {
	var all string
	if json.Unmarshal(data, &all) == nil {
		if all != "all" {
			return fmt.Errorf(`modelTurns is "all" or a list of model calls, not %q`, all)
		}
		m.all = true
		return nil
	}
	return json.Unmarshal(data, &m.turns)
}

func (mode *runMode) pausesModel(turn int) bool {
	if mode.Kind == "step" {
		return true
	}
	if mode.Kind != "breakpoints" || mode.Breakpoints == nil {
		return false
	}
	return mode.Breakpoints.ModelTurns.all || slices.Contains(mode.Breakpoints.ModelTurns.turns, turn)
}

func (mode *runMode) pausesTool(name string) bool {
	if mode.Kind == "step" {
		return true
	}
	return mode.Kind == "breakpoints" && mode.Breakpoints != nil && slices.Contains(mode.Breakpoints.Tools, name)
}

// pauseInfo is lib/contract/pause.ts's PauseInfo.
type pauseInfo struct {
	PauseID   string     `json:"pauseId"`
	Kind      string     `json:"kind"`
	ModelTurn int        `json:"modelTurn,omitempty"`
	Actions   []string   `json:"actions"`
	Request   any        `json:"request,omitempty"`
	Tool      *pauseTool `json:"tool,omitempty"`
	PausedAt  int64      `json:"pausedAt"`
	TraceID   string     `json:"traceId,omitempty"`
}

type pauseTool struct {
	Name  string `json:"name"`
	Ref   string `json:"ref,omitempty"`
	Input any    `json:"input,omitempty"`
}

// decision is lib/contract/pause.ts's PauseDecision (the server has parsed it with its zod schema).
type decision struct {
	Action   string          `json:"action"`
	Parts    []handPart      `json:"parts,omitempty"`
	Request  json.RawMessage `json:"request,omitempty"`
	Input    any             `json:"input,omitempty"`
	Output   any             `json:"output,omitempty"`
	Metadata any             `json:"metadata,omitempty"`
	Message  string          `json:"message,omitempty"`
	Force    bool            `json:"force,omitempty"`
}

// handPart is a hand-written model part: text or a tool request.
type handPart struct {
	Text        *string          `json:"text,omitempty"`
	ToolRequest *ScriptedRequest `json:"toolRequest,omitempty"`
}

type pending struct {
	info    pauseInfo
	decided chan decision
}

// stepper holds one generate's mode and pauses. Parallel tool hooks pause together and are
// released one by one, in any order.
type stepper struct {
	runID      string
	requestID  string
	mu         sync.Mutex
	mode       runMode
	modelCalls int
	pauses     map[string]*pending
	stopped    chan struct{}
	stopOnce   sync.Once
	timeout    time.Duration
	// Where the run is: its last trace (a pause names it) and the spans to export before a pause is told.
	flushing bool
	cancel   context.CancelFunc
	traceID  func() string
	sawTrace func(traceID string)
	flush    func()
}

// errStopped is what a hook returns once the run was stopped (as the JS stepper's StepError CANCELLED).
func errStopped(whilePaused bool) error {
	if whilePaused {
		return status.Errorf(status.ErrCancelled, "The run was stopped by the user while paused.")
	}
	return status.Errorf(status.ErrCancelled, "The run was stopped by the user.")
}

func (s *stepper) isStopped() bool {
	select {
	case <-s.stopped:
		return true
	default:
		return false
	}
}

func (s *stepper) nextModelTurn() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modelCalls++
	return s.modelCalls, s.mode.pausesModel(s.modelCalls)
}

func (s *stepper) wantsToolPause(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode.pausesTool(name)
}

func (s *stepper) setMode(mode runMode) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mode = mode
}

// stop fails every waiting pause and the hooks that follow, and cancels the generate's context,
// so a running tool that watches its context stops too (the JS stepper's abort signal).
func (s *stepper) stop() {
	s.stopOnce.Do(func() {
		close(s.stopped)
		s.cancel()
	})
}

// flushSoon exports the run's ended spans shortly (after the batcher has taken the span that just
// ended), once for a burst of ends — only while a pause waits: otherwise the next pause, or the
// result, exports them (a run that is not paused pays no export per span: bench/go-step-overhead.bench.ts).
func (s *stepper) flushSoon() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.flushing || len(s.pauses) == 0 {
		return
	}
	s.flushing = true
	time.AfterFunc(30*time.Millisecond, func() {
		s.mu.Lock()
		s.flushing = false
		s.mu.Unlock()
		s.flush()
	})
}

// pause tells the server where the run stands and waits for the decision, Stop, the pause limit or
// the call's end.
func (s *stepper) pause(ctx context.Context, info pauseInfo) (decision, error) {
	if s.isStopped() {
		return decision{}, errStopped(false)
	}
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	info.PauseID = hex.EncodeToString(id)
	info.PausedAt = time.Now().UnixMilli()
	info.TraceID = s.traceID()
	waiting := &pending{info: info, decided: make(chan decision, 1)}
	s.mu.Lock()
	s.pauses[info.PauseID] = waiting
	s.mu.Unlock()
	// The steps that finished before the pause are drawn while it waits: their spans go out first.
	s.flush()
	events.send(map[string]any{"type": "paused", "runId": s.runID, "requestId": s.requestID, "pause": info})
	defer func() {
		s.mu.Lock()
		delete(s.pauses, info.PauseID)
		s.mu.Unlock()
		events.send(map[string]any{"type": "pause-ended", "runId": s.runID, "requestId": s.requestID, "pauseId": info.PauseID})
	}()
	timer := time.NewTimer(s.timeout)
	defer timer.Stop()
	select {
	case chosen := <-waiting.decided:
		return chosen, nil
	case <-s.stopped:
		return decision{}, errStopped(true)
	case <-ctx.Done():
		if s.isStopped() {
			return decision{}, errStopped(true)
		}
		return decision{}, ctx.Err()
	case <-timer.C:
		return decision{}, status.Errorf(status.ErrDeadlineExceeded, "The run stayed paused for longer than %d s (LOOPSCOPE_PAUSE_TIMEOUT_MS), so it was ended.", int(s.timeout.Seconds()))
	}
}

// pauseTimeout is LOOPSCOPE_PAUSE_TIMEOUT_MS (15 minutes by default), as for the JS runner.
func pauseTimeout() time.Duration {
	if ms, err := strconv.Atoi(os.Getenv("LOOPSCOPE_PAUSE_TIMEOUT_MS")); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return 15 * time.Minute
}

// stepMiddleware is the genkit Go middleware of a stepped generate: ai.WithUse(&stepMiddleware{…}).
type stepMiddleware struct {
	stepper   *stepper
	handModel ai.Model
}

// Name implements ai.Middleware.
func (*stepMiddleware) Name() string { return "loopscope/step" }

// New implements ai.Middleware: one generate's hooks.
func (m *stepMiddleware) New(context.Context) (*ai.Hooks, error) {
	return &ai.Hooks{WrapModel: m.wrapModel, WrapTool: m.wrapTool}, nil
}

func (m *stepMiddleware) wrapModel(ctx context.Context, params *ai.ModelParams, next ai.ModelNext) (*ai.ModelResponse, error) {
	// Stop while a tool was running: the next model call ends the loop.
	if m.stepper.isStopped() {
		return nil, errStopped(false)
	}
	turn, pauses := m.stepper.nextModelTurn()
	if !pauses {
		return next(ctx, params)
	}
	chosen, err := m.stepper.pause(ctx, pauseInfo{Kind: "model", ModelTurn: turn, Actions: goModelActions, Request: params.Request.Messages})
	if err != nil {
		return nil, err
	}
	switch chosen.Action {
	case "edit-request":
		messages, err := requestMessages(chosen.Request)
		if err != nil {
			return nil, status.Errorf(status.ErrInvalidArgument, "%v", err)
		}
		edited := *params.Request
		edited.Messages = messages
		// The model span records the request it was sent; the generate span keeps what the loop held.
		markSpan(ctx, map[string]string{editedRequestMarker: "true"})
		return next(ctx, &ai.ModelParams{Request: &edited, Callback: params.Callback})
	case "replace-answer":
		// A real model span named loopscope/hand-written records that this answer was written by hand.
		request := *params.Request
		request.Config = handAnswer{Parts: chosen.Parts}
		return m.handModel.Generate(ctx, &request, params.Callback)
	case "fail":
		return nil, errors.New(chosen.Message)
	default:
		return next(ctx, params)
	}
}

func (m *stepMiddleware) wrapTool(ctx context.Context, params *ai.ToolParams, next ai.ToolNext) (*ai.MultipartToolResponse, error) {
	name := params.Tool.Name()
	if !m.stepper.wantsToolPause(name) {
		return next(ctx, params)
	}
	request := params.Request
	chosen, err := m.stepper.pause(ctx, pauseInfo{Kind: "tool", Actions: goToolActions, Tool: &pauseTool{Name: name, Ref: request.Ref, Input: request.Input}})
	if err != nil {
		return nil, err
	}
	switch chosen.Action {
	case "edit-input":
		// The tool's span records the input it ran with; the model's own input is kept beside it.
		encoded, _ := json.Marshal(request.Input)
		edited := *request
		edited.Input = chosen.Input
		return next(withToolMarks(ctx, name, map[string]string{modelArgumentsMarker: string(encoded)}), &ai.ToolParams{Request: &edited, Tool: params.Tool})
	case "answer":
		// The tool does not run: a stand-in answers through genkit's own chain, its span marked answered by hand.
		return next(ctx, &ai.ToolParams{Request: request, Tool: handAnsweredTool{Tool: params.Tool, output: chosen.Output}})
	case "interrupt":
		// A breakpoint becomes a real genkit Go interrupt (answer it by respond / restart), as ToolApproval raises one.
		// No metadata given: the JS stepper's default (step_commands.go refuses metadata that is not an object).
		metadata, ok := chosen.Metadata.(map[string]any)
		if !ok {
			metadata = map[string]any{"pausedBy": "loopscope"}
		}
		return nil, ai.NewToolInterruptError(metadata)
	case "fail":
		return nil, errors.New(chosen.Message)
	default:
		return next(ctx, params)
	}
}

// requestMessages reads an edited request: the messages as the pause showed them.
func requestMessages(raw json.RawMessage) ([]*ai.Message, error) {
	var messages []*ai.Message
	if err := json.Unmarshal(raw, &messages); err != nil {
		return nil, fmt.Errorf("the edited request is not a list of genkit Go messages: %v", err)
	}
	if len(messages) == 0 {
		return nil, errors.New("the edited request has no messages")
	}
	for index, message := range messages {
		if message == nil || message.Role == "" {
			return nil, fmt.Errorf("message %d of the edited request has no role", index)
		}
	}
	return messages, nil
}
