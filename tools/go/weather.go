package tools

import (
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

type CityInput struct {
	City string `json:"city"`
}

type Weather struct {
	City       string  `json:"city"`
	TempC      float64 `json:"tempC"`
	Conditions string  `json:"conditions"`
}

type LocalTime struct {
	City string `json:"city"`
	Time string `json:"time"`
}

func defineGetWeather(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "getWeather", "Current weather for a city.", func(ctx *ai.ToolContext, in CityInput) (Weather, error) {
		return Weather{City: in.City, TempC: 18, Conditions: "sunny"}, nil
	})
}

func defineGetTime(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "getTime", "Local time in a city.", func(ctx *ai.ToolContext, in CityInput) (LocalTime, error) {
		return LocalTime{City: in.City, Time: "14:05"}, nil
	})
}

type LookupInput struct {
	ID string `json:"id"`
}

// defineFailingLookup fails: genkit Go fails the whole generate with the tool's error.
func defineFailingLookup(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "lookupOrder", "Looks an order up (its database is down).", func(ctx *ai.ToolContext, in LookupInput) (map[string]any, error) {
		return nil, fmt.Errorf("order database unreachable while looking up %q", in.ID)
	})
}
