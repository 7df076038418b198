// Package tools holds the genkit Go tools Loopscope's Go runner registers: one genkit.Genkit
// instance, every tool of this folder, offered to the Go scenarios (tools/go/scenarios/) by
// name. A tool is a genkit.DefineTool call in Register; its interrupts use genkit Go's own
// API (ToolContext.Interrupt / ai.InterruptWith, restarts read ToolContext.Resumed).
package tools

import (
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

// Register defines every tool on g and returns them by name.
func Register(g *genkit.Genkit) map[string]ai.Tool {
	tools := map[string]ai.Tool{}
	for _, tool := range []ai.Tool{
		defineGetWeather(g),
		defineConvertTemperature(g),
		defineCheckInventory(g),
		defineTransferMoney(g),
		defineLookupOrder(g),
		defineAskUser(g),
		defineBookFlight(g),
		defineFlagForReview(g),
	} {
		tools[tool.Name()] = tool
	}
	return tools
}
