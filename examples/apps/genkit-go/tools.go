package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/ai/exp/tool"
	"github.com/firebase/genkit/go/genkit"
	genkitx "github.com/firebase/genkit/go/genkit/exp"
)

type WeatherInput struct {
	City string `json:"city" jsonschema:"description=The city to look up"`
}

type Weather struct {
	City       string  `json:"city"`
	Celsius    float64 `json:"celsius"`
	Conditions string  `json:"conditions"`
}

type ConvertInput struct {
	Celsius float64 `json:"celsius"`
}

type MarkerInput struct {
	Note string `json:"note"`
}

type MarkerOutput struct {
	Written bool   `json:"written"`
	Path    string `json:"path,omitempty"`
}

type HotelInput struct {
	City   string `json:"city"`
	Nights int    `json:"nights"`
}

type Booking struct {
	City        string `json:"city"`
	Nights      int    `json:"nights"`
	ConfirmedBy string `json:"confirmedBy"`
}

// NeedsConfirmation is bookHotel's interrupt data (an object, as genkit Go requires).
type NeedsConfirmation struct {
	Reason   string  `json:"reason"`
	PriceUsd float64 `json:"priceUsd"`
}

// Confirmation is bookHotel's resume data: what a restart tells it.
type Confirmation struct {
	Confirmed   bool   `json:"confirmed"`
	ConfirmedBy string `json:"confirmedBy,omitempty"`
}

type appTools struct {
	plain       []ai.ToolRef
	interrupter ai.ToolRef
}

// writeMarkerLine appends one JSON line to $LOOPSCOPE_APP_MARKER (when set), so a test can see
// that this app's own tool ran, with which input, in which process.
func writeMarkerLine(toolName string, input any) (string, error) {
	path := os.Getenv("LOOPSCOPE_APP_MARKER")
	if path == "" {
		return "", nil
	}
	line, err := json.Marshal(map[string]any{"runtime": "genkit-go", "tool": toolName, "input": input, "pid": os.Getpid(), "at": time.Now().UTC().Format(time.RFC3339Nano)})
	if err != nil {
		return "", err
	}
	file, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return "", err
	}
	defer file.Close()
	_, err = file.Write(append(line, '\n'))
	return path, err
}

func defineTools(g *genkit.Genkit) appTools {
	weather := genkit.DefineTool(g, "getWeather", "Gets the current weather in a city.", func(ctx *ai.ToolContext, in WeatherInput) (Weather, error) {
		return Weather{City: in.City, Celsius: 21, Conditions: "sunny"}, nil
	})
	convert := genkit.DefineTool(g, "convertTemperature", "Converts Celsius to Fahrenheit.", func(ctx *ai.ToolContext, in ConvertInput) (float64, error) {
		return in.Celsius*9/5 + 32, nil
	})
	marker := genkit.DefineTool(g, "writeMarker", "Appends a line to the file named by LOOPSCOPE_APP_MARKER.", func(ctx *ai.ToolContext, in MarkerInput) (MarkerOutput, error) {
		path, err := writeMarkerLine("writeMarker", in)
		if err != nil {
			return MarkerOutput{}, fmt.Errorf("writing the marker: %w", err)
		}
		return MarkerOutput{Written: path != "", Path: path}, nil
	})
	// bookHotel interrupts until restarted with a Confirmation; once confirmed it writes the
	// marker too, so a resume run in this app is observable.
	hotel := genkitx.DefineInterruptibleTool(g, "bookHotel", "Books a hotel; a human must confirm the price first.", func(ctx context.Context, in HotelInput, confirmation *Confirmation) (Booking, error) {
		if confirmation == nil {
			return Booking{}, tool.Interrupt(NeedsConfirmation{Reason: "confirm-price", PriceUsd: float64(in.Nights) * 120})
		}
		if !confirmation.Confirmed {
			return Booking{}, fmt.Errorf("the booking was not confirmed")
		}
		if _, err := writeMarkerLine("bookHotel", in); err != nil {
			return Booking{}, fmt.Errorf("writing the marker: %w", err)
		}
		return Booking{City: in.City, Nights: in.Nights, ConfirmedBy: confirmation.ConfirmedBy}, nil
	})
	return appTools{plain: []ai.ToolRef{weather, convert, marker}, interrupter: &hotel.Tool}
}
