// Package tools holds the genkit Go tools Loopscope's Go runner registers: one genkit.Genkit
// instance (with genkit.WithExperimental, for genkit Go's typed interrupts), every tool of this
// folder, offered to the Go scenarios (tools/go/scenarios/) by name. A tool is a define call in
// Register; its interrupts use genkit Go's own API: typed ones (genkit/exp
// DefineInterruptibleTool, tool.Interrupt, the resume data arriving as a Go value) and the
// stable ones (ToolContext.Interrupt, a response part answers it).
package tools

import (
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

// Defined is a registered tool and, for a typed interruptible tool, a zero value of its resume
// type (what a restart's resume data is converted to: the runner describes it as a JSON schema).
type Defined struct {
	Tool   ai.Tool
	Resume any
}

// Register defines every tool on g and returns them by name.
func Register(g *genkit.Genkit) map[string]Defined {
	tools := map[string]Defined{}
	for _, defined := range []Defined{
		{Tool: defineGetWeather(g)},
		{Tool: defineConvertTemperature(g)},
		{Tool: defineCheckInventory(g)},
		defineTransferMoney(g),
		{Tool: defineLookupOrder(g)},
		{Tool: defineSendEmail(g)},
		{Tool: defineAskUser(g)},
		defineBookFlight(g),
		{Tool: defineFlagForReview(g)},
	} {
		tools[defined.Tool.Name()] = defined
	}
	return tools
}
