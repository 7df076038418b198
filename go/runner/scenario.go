package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Scenario is a genkit Go scenario (tools/go/scenarios/*.json, "runtime": "genkit-go"): the
// same file format as the genkit JS scenarios (lib/contract/scenario.ts), played by genkit Go.
type Scenario struct {
	Runtime     string         `json:"runtime"`
	Name        string         `json:"name"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Prompt      string         `json:"prompt"`
	Tools       []string       `json:"tools"`
	Script      []ScriptedTurn `json:"script"`
	Resumes     []Resume       `json:"resumes,omitempty"`
	MaxTurns    int            `json:"maxTurns,omitempty"`
	Order       float64        `json:"order,omitempty"`
	Mirrors     string         `json:"mirrors,omitempty"`
	// ToolApproval puts genkit Go's ToolApproval middleware (plugins/middleware) on the generate.
	ToolApproval *ToolApprovalConfig `json:"toolApproval,omitempty"`
}

// ToolApprovalConfig is middleware.ToolApproval's configuration: the tools it lets run unasked.
type ToolApprovalConfig struct {
	AllowedTools []string `json:"allowedTools"`
}

type ScriptedTurn struct {
	Text         string            `json:"text,omitempty"`
	ToolRequests []ScriptedRequest `json:"toolRequests,omitempty"`
}

type ScriptedRequest struct {
	Name  string `json:"name"`
	Ref   string `json:"ref"`
	Input any    `json:"input,omitempty"`
}

// Resume is one scripted answer: response parts (the tool does not run) and restart parts.
type Resume struct {
	Respond []RespondAnswer `json:"respond,omitempty"`
	Restart []RestartAnswer `json:"restart,omitempty"`
}

type RespondAnswer struct {
	Name   string `json:"name"`
	Ref    string `json:"ref"`
	Output any    `json:"output"`
}

type RestartAnswer struct {
	Name         string `json:"name"`
	Ref          string `json:"ref"`
	Resumed      any    `json:"resumed,omitempty"`
	ReplaceInput any    `json:"replaceInput,omitempty"`
}

func loadScenario(dir, name string) (*Scenario, error) {
	if !regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`).MatchString(name) {
		return nil, fmt.Errorf("scenario name %q: use lowercase letters, digits and dashes", name)
	}
	data, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		return nil, fmt.Errorf("no genkit Go scenario %q in %s: %w", name, dir, err)
	}
	var scenario Scenario
	if err := json.Unmarshal(data, &scenario); err != nil {
		return nil, fmt.Errorf("scenario %s.json is not valid: %w", name, err)
	}
	if scenario.Runtime != "genkit-go" {
		return nil, fmt.Errorf("scenario %s.json has runtime %q, not \"genkit-go\"", name, scenario.Runtime)
	}
	if len(scenario.Script) == 0 {
		return nil, fmt.Errorf("scenario %s.json has no script", name)
	}
	return &scenario, nil
}

var reference = regexp.MustCompile(`\{\{\s*([^#{}\s]+)#([^.{}\s]+)((?:\.[^.{}\s]+)*)\s*\}\}`)

// fillScriptText replaces {{NAME#REF.field}} with what tool call NAME#REF returned in the
// history, as lib/runner/script-text.ts does for the JS scripted models (same rule, same words).
func fillScriptText(text string, outputOf func(name, ref string) (any, bool)) string {
	return reference.ReplaceAllStringFunc(text, func(match string) string {
		parts := reference.FindStringSubmatch(match)
		name, ref, path := parts[1], parts[2], parts[3]
		value, found := outputOf(name, ref)
		for _, key := range strings.Split(strings.TrimPrefix(path, "."), ".") {
			if key == "" || !found {
				continue
			}
			object, ok := value.(map[string]any)
			if !ok {
				found = false
				break
			}
			value, found = object[key]
		}
		if !found || value == nil {
			return "(no " + name + "#" + ref + path + ")"
		}
		if s, ok := value.(string); ok {
			return s
		}
		encoded, _ := json.Marshal(value)
		return string(encoded)
	})
}
