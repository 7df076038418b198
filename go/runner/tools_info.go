package main

import (
	"fmt"
	"sort"

	"github.com/invopop/jsonschema"

	tools "loopscope.local/tools"
)

// toolInfo is what the runner tells the server about a Go tool: its name, description and
// schemas as genkit Go derived them (the step panel's editors start from them) and, for a typed
// interruptible tool, the JSON schema of its resume type (genkit Go converts a restart's resume
// data to that Go type; data that does not fit fails the tool).
type toolInfo struct {
	Name         string             `json:"name"`
	Description  string             `json:"description,omitempty"`
	InputSchema  map[string]any     `json:"inputSchema,omitempty"`
	OutputSchema map[string]any     `json:"outputSchema,omitempty"`
	ResumeType   string             `json:"resumeType,omitempty"`
	ResumeSchema *jsonschema.Schema `json:"resumeSchema,omitempty"`
}

func describeTools(defined map[string]tools.Defined) []toolInfo {
	reflector := &jsonschema.Reflector{DoNotReference: true, AllowAdditionalProperties: true}
	infos := make([]toolInfo, 0, len(defined))
	for name, tool := range defined {
		definition := tool.Tool.Definition()
		info := toolInfo{Name: name, Description: definition.Description, InputSchema: definition.InputSchema, OutputSchema: definition.OutputSchema}
		if tool.Resume != nil {
			info.ResumeSchema = reflector.Reflect(tool.Resume)
			info.ResumeSchema.Version = ""
			info.ResumeType = reflectTypeName(tool.Resume)
		}
		infos = append(infos, info)
	}
	sort.Slice(infos, func(a, b int) bool { return infos[a].Name < infos[b].Name })
	return infos
}

func reflectTypeName(value any) string {
	return fmt.Sprintf("%T", value)
}
