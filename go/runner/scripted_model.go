package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

// scriptedModelName is the model a scenario's calls record: scripted/<scenario> (the JS runner's name too).
func scriptedModelName(scenario string) string { return "scripted/" + scenario }

// defineScriptedModel defines the scenario's scripted model with genkit Go's model API: turn N
// of the script answers the request whose history holds N model messages, so a resume of a
// recorded call (its history sent again) gets the turn that follows.
func defineScriptedModel(g *genkit.Genkit, scenario *Scenario) ai.Model {
	return genkit.DefineModel(g, scriptedModelName(scenario.Name), &ai.ModelOptions{
		Label:    "Scripted model of " + scenario.Name,
		Supports: &ai.ModelSupports{Tools: true, Multiturn: true, SystemRole: true},
	}, func(ctx context.Context, request *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		turn := 0
		for _, message := range request.Messages {
			if message.Role == ai.RoleModel {
				turn++
			}
		}
		if turn >= len(scenario.Script) {
			return nil, fmt.Errorf("scenario %q has %d scripted turn(s); the model was asked for turn %d", scenario.Name, len(scenario.Script), turn+1)
		}
		script := scenario.Script[turn]
		message := &ai.Message{Role: ai.RoleModel}
		if script.Text != "" {
			message.Content = append(message.Content, ai.NewTextPart(fillScriptText(script.Text, func(name, ref string) (any, bool) { return toolOutputIn(request.Messages, name, ref) })))
		}
		for _, call := range script.ToolRequests {
			message.Content = append(message.Content, ai.NewToolRequestPart(&ai.ToolRequest{Name: call.Name, Ref: call.Ref, Input: call.Input}))
		}
		return &ai.ModelResponse{Message: message, FinishReason: ai.FinishReasonStop, Request: request}, nil
	})
}

// toolOutputIn is what tool call name#ref returned in a history (the last answer wins), as JSON values.
func toolOutputIn(messages []*ai.Message, name, ref string) (any, bool) {
	for index := len(messages) - 1; index >= 0; index-- {
		for _, part := range messages[index].Content {
			if part.ToolResponse == nil || part.ToolResponse.Name != name || part.ToolResponse.Ref != ref {
				continue
			}
			encoded, err := json.Marshal(part.ToolResponse.Output)
			if err != nil {
				return nil, false
			}
			var value any
			if err := json.Unmarshal(encoded, &value); err != nil {
				return nil, false
			}
			return value, true
		}
	}
	return nil, false
}
