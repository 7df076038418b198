package tools

import (
	"fmt"
	"math"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

// The same tools as tools/weather.ts and tools/inventory.ts, in Go: same names, schemas and
// outputs, so that a scenario run on both runtimes differs only where the runtimes do.

type CityInput struct {
	City string `json:"city"`
}

type Weather struct {
	City         string  `json:"city"`
	TemperatureC float64 `json:"temperatureC"`
	Conditions   string  `json:"conditions"`
}

type Celsius struct {
	Celsius float64 `json:"celsius"`
}

type Fahrenheit struct {
	Fahrenheit float64 `json:"fahrenheit"`
}

func defineGetWeather(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "getWeather", "Current weather for a city.", func(ctx *ai.ToolContext, in CityInput) (Weather, error) {
		temperature := float64(12 + (len(in.City)*7)%15)
		conditions := "cloudy"
		if temperature > 20 {
			conditions = "sunny"
		}
		return Weather{City: in.City, TemperatureC: temperature, Conditions: conditions}, nil
	})
}

func defineConvertTemperature(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "convertTemperature", "Converts a temperature from Celsius to Fahrenheit.", func(ctx *ai.ToolContext, in Celsius) (Fahrenheit, error) {
		return Fahrenheit{Fahrenheit: math.Round(in.Celsius*9/5 + 32)}, nil
	})
}

type SKU struct {
	SKU string `json:"sku"`
}

type Stock struct {
	SKU     string  `json:"sku"`
	InStock float64 `json:"inStock"`
}

// defineCheckInventory fails: genkit Go fails the whole generate with the tool's error.
func defineCheckInventory(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "checkInventory", "Checks stock for a product. Its backing service is down.", func(ctx *ai.ToolContext, in SKU) (Stock, error) {
		return Stock{}, fmt.Errorf("Inventory service returned 503 for %s", in.SKU)
	})
}
