package main

import (
	"context"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

type TripInput struct {
	City string `json:"city"`
}

// TripOutput is what a flow returns: the generate's outcome, with the interrupts and the
// history a caller needs to resume an interrupted one.
type TripOutput struct {
	FinishReason string        `json:"finishReason"`
	Text         string        `json:"text"`
	Interrupts   []*ai.Part    `json:"interrupts,omitempty"`
	Messages     []*ai.Message `json:"messages,omitempty"`
}

func outputOfResponse(response *ai.ModelResponse) TripOutput {
	output := TripOutput{FinishReason: string(response.FinishReason), Text: response.Text(), Interrupts: response.Interrupts()}
	if len(output.Interrupts) > 0 {
		output.Messages = response.History()
	}
	return output
}

func defineFlows(g *genkit.Genkit, tools appTools) {
	// planTrip: three model turns — getWeather and convertTemperature in parallel, then writeMarker, then text.
	genkit.DefineFlow(g, "planTrip", func(ctx context.Context, in TripInput) (TripOutput, error) {
		response, err := genkit.Generate(ctx, g, ai.WithModelName(modelName), ai.WithPrompt("Plan a trip to "+in.City), ai.WithTools(tools.plain...))
		if err != nil {
			return TripOutput{}, err
		}
		return outputOfResponse(response), nil
	})
	// bookTrip: the model asks for bookHotel, which interrupts; the flow returns the interrupt.
	genkit.DefineFlow(g, "bookTrip", func(ctx context.Context, in TripInput) (TripOutput, error) {
		response, err := genkit.Generate(ctx, g, ai.WithModelName(modelName), ai.WithPrompt("Book a hotel in "+in.City), ai.WithTools(tools.interrupter))
		if err != nil {
			return TripOutput{}, err
		}
		return outputOfResponse(response), nil
	})
}
