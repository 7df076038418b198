package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/ai/exp/tool"
	"github.com/firebase/genkit/go/core"
	"github.com/firebase/genkit/go/core/tracing"
	"github.com/firebase/genkit/go/genkit"
	"github.com/firebase/genkit/go/plugins/middleware"

	tools "loopscope.local/tools"
)

type runner struct {
	g            *genkit.Genkit
	tools        map[string]tools.Defined
	scenariosDir string
	mu           sync.Mutex
	models       map[string]bool
	// flush exports every ended span (the tracer provider's ForceFlush).
	flush func(context.Context) error
}

// pendingInterrupt is an interrupted tool request of the response, as the server shows it.
type pendingInterrupt struct {
	Name     string `json:"name"`
	Ref      string `json:"ref,omitempty"`
	Input    any    `json:"input,omitempty"`
	Metadata any    `json:"metadata,omitempty"`
}

type outcome struct {
	FinishReason string             `json:"finishReason"`
	Text         string             `json:"text"`
	Interrupts   []pendingInterrupt `json:"interrupts"`
	Messages     []*ai.Message      `json:"messages"`
}

type failure struct {
	Message string `json:"message"`
	Status  string `json:"status,omitempty"`
}

type result struct {
	Type      string `json:"type"`
	RequestID string `json:"requestId"`
	// Every trace the call recorded, in the order they started (one: genkit Go runs a resume's
	// restarts inside the generate's span), and the generate's root span.
	TraceIDs []string `json:"traceIds"`
	TraceID  string   `json:"traceId,omitempty"`
	// The generate's root span: what a resume of this call links to.
	RootSpan *SpanRef `json:"rootSpan,omitempty"`
	Outcome  *outcome `json:"outcome,omitempty"`
	Failure  *failure `json:"failure,omitempty"`
	// Stopped while a tool ran: answered without it, its goroutine still running (stop.go).
	CodeLeftRunning bool `json:"codeLeftRunning,omitempty"`
}

func toolNames(defined map[string]tools.Defined) []string {
	names := make([]string, 0, len(defined))
	for name := range defined {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// model defines a scenario's scripted model once.
func (r *runner) model(scenario *Scenario) ai.Model {
	r.mu.Lock()
	defer r.mu.Unlock()
	name := scriptedModelName(scenario.Name)
	if r.models[name] {
		return genkit.LookupModel(r.g, name)
	}
	r.models[name] = true
	return defineScriptedModel(r.g, scenario)
}

func (r *runner) generate(ctx context.Context, cmd command) result {
	answer := result{Type: "result", RequestID: cmd.RequestID, TraceIDs: []string{}}
	scenario, err := loadScenario(r.scenariosDir, cmd.Scenario)
	if err != nil {
		answer.Failure = &failure{Message: err.Error(), Status: "NOT_FOUND"}
		return answer
	}
	options := []ai.GenerateOption{ai.WithModel(r.model(scenario))}
	var offered []ai.ToolRef
	for _, name := range scenario.Tools {
		// A scenario may offer a tool that exists nowhere (the unknown-tool scenario): it is not offered, the model asks anyway.
		if defined, ok := r.tools[name]; ok {
			offered = append(offered, defined.Tool)
		}
	}
	if len(offered) > 0 {
		options = append(options, ai.WithTools(offered...))
	}
	if scenario.ToolApproval != nil {
		// genkit Go's own ToolApproval middleware: a WrapTool hook that holds every other tool's call.
		options = append(options, ai.WithUse(&middleware.ToolApproval{AllowedTools: scenario.ToolApproval.AllowedTools}))
	}
	if scenario.MaxTurns > 0 {
		options = append(options, ai.WithMaxTurns(scenario.MaxTurns))
	}
	options = append(options, r.stepOptions(ctx)...)
	if len(cmd.Messages) == 0 {
		options = append(options, ai.WithPrompt(scenario.Prompt))
	} else {
		messages := make([]*ai.Message, 0, len(cmd.Messages))
		for index, raw := range cmd.Messages {
			var message ai.Message
			if err := json.Unmarshal(raw, &message); err != nil {
				answer.Failure = &failure{Message: fmt.Sprintf("message %d of the history is not a genkit message: %v", index, err), Status: "INVALID_ARGUMENT"}
				return answer
			}
			messages = append(messages, &message)
		}
		options = append(options, ai.WithMessages(messages...))
		if cmd.Resume != nil {
			resumeOptions, err := r.resumeParts(messages, cmd.Resume)
			if err != nil {
				answer.Failure = &failure{Message: err.Error(), Status: "INVALID_ARGUMENT"}
				return answer
			}
			options = append(options, resumeOptions...)
		}
	}
	var seen sync.Mutex
	roots := map[string]string{}
	// Called for every span the call starts: the first of each trace is its root.
	ctx = tracing.WithTelemetryCallback(withAnswers(ctx, cmd.Answers), func(traceID, spanID string) {
		seen.Lock()
		defer seen.Unlock()
		if _, known := roots[traceID]; known {
			return
		}
		roots[traceID] = spanID
		answer.TraceIDs = append(answer.TraceIDs, traceID)
	})
	response, err := genkit.Generate(ctx, r.g, options...)
	if len(answer.TraceIDs) > 0 {
		answer.TraceID = answer.TraceIDs[len(answer.TraceIDs)-1]
		answer.RootSpan = &SpanRef{TraceID: answer.TraceID, SpanID: roots[answer.TraceID]}
	}
	if err != nil {
		answer.Failure = &failure{Message: err.Error(), Status: statusOf(err)}
		return answer
	}
	answer.Outcome = outcomeOf(response)
	return answer
}

func statusOf(err error) string {
	var genkitErr *core.GenkitError
	if errors.As(err, &genkitErr) {
		return string(genkitErr.Status)
	}
	return ""
}

func outcomeOf(response *ai.ModelResponse) *outcome {
	result := &outcome{FinishReason: string(response.FinishReason), Text: response.Text(), Interrupts: []pendingInterrupt{}, Messages: response.History()}
	for _, part := range response.Interrupts() {
		result.Interrupts = append(result.Interrupts, pendingInterrupt{Name: part.ToolRequest.Name, Ref: part.ToolRequest.Ref, Input: part.ToolRequest.Input, Metadata: part.Metadata["interrupt"]})
	}
	return result
}

// resumeParts builds genkit Go's own parts for the interrupted requests of the last model
// message: tool.Respond (a response part), tool.Resume (a restart with typed resume data) and,
// for a new input, the tool's Restart with RestartOptions.ReplaceInput.
func (r *runner) resumeParts(messages []*ai.Message, resume *Resume) ([]ai.GenerateOption, error) {
	var last *ai.Message
	for index := len(messages) - 1; index >= 0; index-- {
		if messages[index].Role == ai.RoleModel {
			last = messages[index]
			break
		}
	}
	find := func(name, ref string) (*ai.Part, error) {
		if last != nil {
			for _, part := range last.Content {
				if part.ToolRequest != nil && part.ToolRequest.Name == name && part.ToolRequest.Ref == ref {
					return part, nil
				}
			}
		}
		return nil, fmt.Errorf("the last model message has no tool request %s#%s", name, ref)
	}
	var options []ai.GenerateOption
	var responses, restarts []*ai.Part
	for _, answer := range resume.Respond {
		part, err := find(answer.Name, answer.Ref)
		if err != nil {
			return nil, err
		}
		response, err := tool.Respond(part, answer.Output)
		if err != nil {
			return nil, err
		}
		responses = append(responses, response)
	}
	for _, answer := range resume.Restart {
		part, err := find(answer.Name, answer.Ref)
		if err != nil {
			return nil, err
		}
		restart, err := r.restartPart(part, answer)
		if err != nil {
			return nil, err
		}
		restarts = append(restarts, restart)
	}
	if len(responses) > 0 {
		options = append(options, ai.WithToolResponses(responses...))
	}
	if len(restarts) > 0 {
		options = append(options, ai.WithToolRestarts(restarts...))
	}
	return options, nil
}

// restartPart is genkit Go's restart part for one answer: tool.Resume when it only brings resume
// data (which must be a JSON object), the tool's Restart when there is no data (resumed: true)
// or a new input.
func (r *runner) restartPart(part *ai.Part, answer RestartAnswer) (*ai.Part, error) {
	noData := answer.Resumed == nil || answer.Resumed == true
	if answer.ReplaceInput == nil && !noData {
		return tool.Resume(part, answer.Resumed)
	}
	defined, ok := r.tools[answer.Name]
	if !ok {
		return nil, fmt.Errorf("no Go tool %q is registered in tools/go/", answer.Name)
	}
	options := &ai.RestartOptions{ReplaceInput: answer.ReplaceInput}
	if !noData {
		data, isObject := answer.Resumed.(map[string]any)
		if !isObject {
			return nil, fmt.Errorf("RestartOptions.ResumedMetadata is map[string]any: the resume data of %s#%s must be a JSON object", answer.Name, answer.Ref)
		}
		options.ResumedMetadata = data
	}
	return defined.Tool.Restart(part, options), nil
}
