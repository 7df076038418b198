package main

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/firebase/genkit/go/ai"
	"github.com/xeipuuv/gojsonschema"
)

// The stepped generates in progress, by run id (a run's resume gets a stepper of its own, with the run's mode).
var stepped = struct {
	mu   sync.Mutex
	runs map[string]*stepper
}{runs: map[string]*stepper{}}

// withStepping gives a generate command with a mode its stepper (carried by the context to the
// middleware and the span processor); done forgets it. Without a mode nothing is installed.
func withStepping(ctx context.Context, cmd command, flush func()) (context.Context, func()) {
	if cmd.Mode == nil || cmd.RunID == "" {
		return ctx, func() {}
	}
	var last string
	var lastMu sync.Mutex
	ctx, cancel := context.WithCancel(ctx)
	s := &stepper{runID: cmd.RunID, requestID: cmd.RequestID, mode: *cmd.Mode, pauses: map[string]*pending{}, stopped: make(chan struct{}), timeout: pauseTimeout(), flush: flush, cancel: cancel}
	// Stop reaches the call (stop.go), and through it this stepper's pauses.
	if call, ok := ctx.Value(stoppableKey{}).(*stoppable); ok {
		call.mu.Lock()
		call.stepper = s
		call.mu.Unlock()
	}
	s.sawTrace = func(traceID string) {
		lastMu.Lock()
		defer lastMu.Unlock()
		last = traceID
	}
	s.traceID = func() string {
		lastMu.Lock()
		defer lastMu.Unlock()
		return last
	}
	stepped.mu.Lock()
	stepped.runs[cmd.RunID] = s
	stepped.mu.Unlock()
	return context.WithValue(ctx, steppedRunKey{}, s), func() {
		cancel()
		stepped.mu.Lock()
		defer stepped.mu.Unlock()
		if stepped.runs[cmd.RunID] == s {
			delete(stepped.runs, cmd.RunID)
		}
	}
}

// stepOptions is the step middleware of a stepped generate (none for a run straight through).
func (r *runner) stepOptions(ctx context.Context) []ai.GenerateOption {
	s, ok := ctx.Value(steppedRunKey{}).(*stepper)
	if !ok {
		return nil
	}
	return []ai.GenerateOption{ai.WithUse(&stepMiddleware{stepper: s, handModel: handWrittenModel(r.g)})}
}

type commandResult struct {
	Type      string   `json:"type"`
	RequestID string   `json:"requestId"`
	OK        bool     `json:"ok"`
	Problems  []string `json:"problems,omitempty"`
	Message   string   `json:"message,omitempty"`
}

// stepCommand carries out pause-decision and set-mode, as the JS runner's handleStepCommand does
// (stop reaches any call, stepped or not: stop.go).
func (r *runner) stepCommand(cmd command) commandResult {
	reply := commandResult{Type: "command-result", RequestID: cmd.RequestID}
	stepped.mu.Lock()
	s := stepped.runs[cmd.RunID]
	stepped.mu.Unlock()
	if s == nil {
		reply.Message = fmt.Sprintf("Run %s is not running in the genkit Go runner.", cmd.RunID)
		return reply
	}
	switch cmd.Type {
	case "set-mode":
		if cmd.Mode == nil {
			reply.Message = "set-mode needs a mode."
			return reply
		}
		s.setMode(*cmd.Mode)
		reply.OK = true
		return reply
	}
	if cmd.Decision == nil {
		reply.Message = "pause-decision needs a decision."
		return reply
	}
	s.mu.Lock()
	waiting := s.pauses[cmd.PauseID]
	s.mu.Unlock()
	if waiting == nil {
		reply.Message = "That pause is over (the run moved on, was stopped or timed out)."
		return reply
	}
	if !contains(waiting.info.Actions, cmd.Decision.Action) {
		quoted := make([]string, len(waiting.info.Actions))
		for index, action := range waiting.info.Actions {
			quoted[index] = fmt.Sprintf("%q", action)
		}
		reply.Message = fmt.Sprintf("This pause does not take %q: it takes %s.", cmd.Decision.Action, strings.Join(quoted, ", "))
		return reply
	}
	if cmd.Decision.Action == "edit-request" {
		// Not a schema question: a request genkit Go cannot read is never sent, forced or not.
		if _, err := requestMessages(cmd.Decision.Request); err != nil {
			reply.Message = err.Error() + "."
			return reply
		}
	}
	if _, isObject := cmd.Decision.Metadata.(map[string]any); cmd.Decision.Action == "interrupt" && cmd.Decision.Metadata != nil && !isObject {
		// genkit Go's interrupt data is a map[string]any: anything else would fail the call at the raise site.
		reply.Message = "The interrupt metadata must be a JSON object: genkit Go's interrupt data is a map[string]any."
		return reply
	}
	problems := r.decisionProblems(waiting.info, *cmd.Decision)
	if len(problems) > 0 && !cmd.Decision.Force {
		reply.Problems = problems
		reply.Message = "The decision breaks the tool’s schema; send it with force to see what genkit Go does."
		return reply
	}
	// The pause's channel holds one decision: a second one for the same pause finds it full.
	select {
	case waiting.decided <- *cmd.Decision:
	default:
		reply.Message = "That pause already has its decision."
		return reply
	}
	reply.OK = true
	reply.Problems = problems
	return reply
}

func contains(values []string, value string) bool {
	for _, candidate := range values {
		if candidate == value {
			return true
		}
	}
	return false
}

// decisionProblems checks a decision against the Go tools' own schemas (their ToolDefinition, as
// genkit Go validates them), in the JS runner's words: `input: city: city is required`.
func (r *runner) decisionProblems(pause pauseInfo, chosen decision) []string {
	var problems []string
	switch chosen.Action {
	case "replace-answer":
		for _, part := range chosen.Parts {
			if part.ToolRequest == nil {
				continue
			}
			if problem := r.schemaProblem(part.ToolRequest.Name, true, part.ToolRequest.Input); problem != "" {
				problems = append(problems, fmt.Sprintf("%s#%s: %s", part.ToolRequest.Name, part.ToolRequest.Ref, problem))
			}
		}
	case "edit-input":
		if problem := r.schemaProblem(pause.Tool.Name, true, chosen.Input); problem != "" {
			problems = append(problems, "input: "+problem)
		}
	case "answer":
		if problem := r.schemaProblem(pause.Tool.Name, false, chosen.Output); problem != "" {
			problems = append(problems, "output: "+problem)
		}
	}
	return problems
}

func (r *runner) schemaProblem(toolName string, input bool, value any) string {
	defined, ok := r.tools[toolName]
	if !ok {
		return fmt.Sprintf("no tool named %s is registered", toolName)
	}
	schema := defined.Tool.Definition().OutputSchema
	if input {
		schema = defined.Tool.Definition().InputSchema
	}
	if len(schema) == 0 {
		return ""
	}
	result, err := gojsonschema.Validate(gojsonschema.NewGoLoader(schema), gojsonschema.NewGoLoader(value))
	if err != nil {
		return fmt.Sprintf("cannot be checked against the schema: %v", err)
	}
	if result.Valid() {
		return ""
	}
	first := result.Errors()[0]
	return fmt.Sprintf("%s: %s", first.Field(), first.Description())
}
