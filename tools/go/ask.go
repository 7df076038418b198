package tools

import (
	"context"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/ai/exp/tool"
	"github.com/firebase/genkit/go/genkit"
	genkitx "github.com/firebase/genkit/go/genkit/exp"
)

type Question struct {
	Question string   `json:"question"`
	Choices  []string `json:"choices,omitempty"`
}

type Answer struct {
	Answer string `json:"answer"`
}

// defineAskUser is tools/ask-user.ts's defineInterrupt in Go (genkit Go has no defineInterrupt):
// it always interrupts (ToolContext.Interrupt, the stable API), with the same data, and is
// answered by a response part.
func defineAskUser(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "askUser", "Asks the user a question and waits for the answer.", func(ctx *ai.ToolContext, in Question) (Answer, error) {
		return Answer{}, ctx.Interrupt(&ai.InterruptOptions{Metadata: map[string]any{"kind": "question", "choiceCount": len(in.Choices)}})
	})
}

type Flight struct {
	From string `json:"from"`
	To   string `json:"to"`
	Date string `json:"date"`
}

type Booking struct {
	Status string `json:"status"`
	Flight Flight `json:"flight"`
}

// Confirmation is bookFlight's typed resume data.
type Confirmation struct {
	Confirmed bool `json:"confirmed"`
}

// defineBookFlight asks to confirm the flight (a typed interrupt); a restart with a new input
// (RestartOptions.ReplaceInput) books the corrected one, `confirmed: false` books nothing.
func defineBookFlight(g *genkit.Genkit) Defined {
	typed := genkitx.DefineInterruptibleTool(g, "bookFlight", "Books a flight after the person confirms it.", func(ctx context.Context, in Flight, confirmation *Confirmation) (Booking, error) {
		if confirmation == nil {
			return Booking{}, tool.Interrupt(map[string]any{"confirm": in})
		}
		if !confirmation.Confirmed {
			return Booking{Status: "not-booked", Flight: in}, nil
		}
		return Booking{Status: "booked", Flight: in}, nil
	})
	return Defined{Tool: &typed.Tool, Resume: Confirmation{}}
}

// defineFlagForReview interrupts with data that is not a JSON object (a string): genkit Go's
// typed tool.Interrupt needs an object, and the call fails at the raise site.
func defineFlagForReview(g *genkit.Genkit) ai.Tool {
	return genkitx.DefineTool(g, "flagForReview", "Flags a message for a human to review.", func(ctx context.Context, in Question) (Answer, error) {
		return Answer{}, tool.Interrupt("needs a human: " + in.Question)
	})
}
