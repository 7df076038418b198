package tools

import (
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

type Question struct {
	Question string   `json:"question"`
	Choices  []string `json:"choices,omitempty"`
}

type Answer struct {
	Answer string `json:"answer"`
}

// defineAskUser is tools/ask-user.ts's defineInterrupt in Go (genkit Go 1.4.0 has no
// defineInterrupt): it always interrupts, with the same data, and is answered by a response part.
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

// defineBookFlight asks to confirm the flight; a restart with a new input (RestartWith + WithNewInput) books the corrected one.
func defineBookFlight(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "bookFlight", "Books a flight after the person confirms it.", func(ctx *ai.ToolContext, in Flight) (Booking, error) {
		if !ctx.IsResumed() {
			return Booking{}, ctx.Interrupt(&ai.InterruptOptions{Metadata: map[string]any{"confirm": in}})
		}
		return Booking{Status: "booked", Flight: in}, nil
	})
}

// defineFlagForReview interrupts with data that is not a JSON object (a string): genkit Go's
// InterruptWith converts the data to map[string]any, which fails at the raise site.
func defineFlagForReview(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "flagForReview", "Flags a message for a human to review.", func(ctx *ai.ToolContext, in Question) (Answer, error) {
		return Answer{}, ai.InterruptWith(ctx, "needs a human: "+in.Question)
	})
}
