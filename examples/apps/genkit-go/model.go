package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

// modelName is the app's own model: it asks for the tools in turn from a script chosen by the
// prompt, so a flow run exercises a real tool loop without a model API.
const modelName = "app/scripted"

type turn struct {
	requests []*ai.ToolRequest
	text     func(messages []*ai.Message) string
}

// scriptFor picks the script by the first user message: "book …" asks for the interrupting
// tool; anything else plans a trip (two tools in parallel, then the marker tool).
func scriptFor(prompt string) []turn {
	city := strings.TrimSpace(prompt[strings.LastIndex(prompt, " ")+1:])
	if strings.HasPrefix(strings.ToLower(prompt), "book") {
		return []turn{
			{requests: []*ai.ToolRequest{{Name: "bookHotel", Ref: "book-1", Input: map[string]any{"city": city, "nights": 2}}}},
			{text: func(messages []*ai.Message) string {
				return "Booked: " + outputOf(messages, "bookHotel") + "."
			}},
		}
	}
	return []turn{
		{requests: []*ai.ToolRequest{
			{Name: "getWeather", Ref: "weather-1", Input: map[string]any{"city": city}},
			{Name: "convertTemperature", Ref: "convert-1", Input: map[string]any{"celsius": 21}},
		}},
		{requests: []*ai.ToolRequest{{Name: "writeMarker", Ref: "marker-1", Input: map[string]any{"note": "planned " + city}}}},
		{text: func(messages []*ai.Message) string {
			return fmt.Sprintf("%s: %s, %s°F.", city, outputOf(messages, "getWeather"), outputOf(messages, "convertTemperature"))
		}},
	}
}

func defineModel(g *genkit.Genkit) ai.Model {
	return genkit.DefineModel(g, modelName, &ai.ModelOptions{
		Label:    "The app's scripted model",
		Supports: &ai.ModelSupports{Tools: true, Multiturn: true, SystemRole: true},
	}, func(ctx context.Context, request *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		prompt, done := "", 0
		for _, message := range request.Messages {
			if message.Role == ai.RoleUser && prompt == "" {
				prompt = message.Text()
			}
			if message.Role == ai.RoleModel {
				done++
			}
		}
		script := scriptFor(prompt)
		if done >= len(script) {
			return nil, fmt.Errorf("the script for %q has %d turn(s); turn %d was asked for", prompt, len(script), done+1)
		}
		next := script[done]
		message := &ai.Message{Role: ai.RoleModel}
		for _, request := range next.requests {
			message.Content = append(message.Content, ai.NewToolRequestPart(request))
		}
		if next.text != nil {
			message.Content = append(message.Content, ai.NewTextPart(next.text(request.Messages)))
		}
		return &ai.ModelResponse{Message: message, FinishReason: ai.FinishReasonStop, Request: request}, nil
	})
}

// outputOf is the last output tool `name` gave in the history, as JSON ("null" if none).
func outputOf(messages []*ai.Message, name string) string {
	for index := len(messages) - 1; index >= 0; index-- {
		for _, part := range messages[index].Content {
			if part.ToolResponse != nil && part.ToolResponse.Name == name {
				encoded, err := json.Marshal(part.ToolResponse.Output)
				if err != nil {
					return fmt.Sprintf("%v", part.ToolResponse.Output)
				}
				return string(encoded)
			}
		}
	}
	return "null"
}
