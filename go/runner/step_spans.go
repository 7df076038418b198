package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"sync"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/core/api"
	"github.com/firebase/genkit/go/core/tracing"
	"github.com/firebase/genkit/go/genkit"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// How a decision shows in genkit Go's spans. genkit Go's spans are genkit's, so the genkit marks
// are the JS runner's (lib/runtimes/genkit-js/read/loopscope-markers.ts): a model named
// loopscope/hand-written, a tool span with genkit:metadata:loopscope:answeredByHand. What genkit
// JS cannot do at a pause (edit a request or a tool's input) is marked with the AI SDK's names
// (lib/runtimes/ai-sdk/read/loopscope-markers.ts).
const (
	handWrittenModelName = "loopscope/hand-written"
	answeredByHandKey    = "loopscope:answeredByHand" // genkit adds the genkit:metadata: prefix
	editedRequestMarker  = "loopscope.step.edited_request"
	modelArgumentsMarker = "loopscope.step.model_arguments"
)

// eventWriter writes the runner's JSON lines: results, pauses and span starts leave from several
// goroutines, one whole line at a time.
type eventWriter struct {
	mu  sync.Mutex
	out *json.Encoder
}

var events = &eventWriter{out: json.NewEncoder(os.Stdout)}

// use sends the lines that follow to out (the command loop's output).
func (w *eventWriter) use(out io.Writer) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.out = json.NewEncoder(out)
}

func (w *eventWriter) send(value any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.out.Encode(value); err != nil {
		fail(err)
	}
}

// markSpan sets attributes on the span the hook runs in (a model hook: the generate's span).
func markSpan(ctx context.Context, attributes map[string]string) {
	span := trace.SpanFromContext(ctx)
	for key, value := range attributes {
		span.SetAttributes(attribute.String(key, value))
	}
}

// toolMarks are attributes for the tool span genkit Go starts under the hook's span: a WrapTool
// hook runs before that span exists, so stepSpanProcessor sets them when it starts.
type toolMarks struct {
	parent     trace.SpanID
	name       string
	attributes map[string]string
}

type toolMarksKey struct{}

func withToolMarks(ctx context.Context, name string, attributes map[string]string) context.Context {
	return context.WithValue(ctx, toolMarksKey{}, &toolMarks{parent: trace.SpanContextFromContext(ctx).SpanID(), name: name, attributes: attributes})
}

type steppedRunKey struct{}

// stepSpanProcessor sets a tool's marks when its span starts, and tells the server of every span
// a stepped run starts (lib/contract/span-start.ts), so a paused run is drawn with its open spans.
type stepSpanProcessor struct{}

func (stepSpanProcessor) OnStart(ctx context.Context, span sdktrace.ReadWriteSpan) {
	if marks, ok := ctx.Value(toolMarksKey{}).(*toolMarks); ok && span.Parent().SpanID() == marks.parent && span.Name() == marks.name {
		for key, value := range marks.attributes {
			span.SetAttributes(attribute.String(key, value))
		}
	}
	run, ok := ctx.Value(steppedRunKey{}).(*stepper)
	if !ok {
		return
	}
	// A span a stopped call starts after it was answered is neither told nor exported (stop.go).
	if call, stoppable := ctx.Value(stoppableKey{}).(*stoppable); stoppable && call.isOver() {
		return
	}
	traceID := span.SpanContext().TraceID().String()
	run.sawTrace(traceID)
	steppedSpans.Store(span.SpanContext().SpanID(), run)
	attributes := map[string]string{}
	for _, kv := range span.Attributes() {
		attributes[string(kv.Key)] = kv.Value.Emit()
	}
	start := map[string]any{
		"runId": run.runID, "requestId": run.requestID, "traceId": traceID, "spanId": span.SpanContext().SpanID().String(),
		"name": span.Name(), "attributes": attributes, "startTimeUnixNano": strconv.FormatInt(span.StartTime().UnixNano(), 10),
	}
	if span.Parent().IsValid() {
		start["parentSpanId"] = span.Parent().SpanID().String()
	}
	resource := map[string]string{}
	for _, kv := range span.Resource().Attributes() {
		resource[string(kv.Key)] = kv.Value.Emit()
	}
	start["resource"] = resource
	events.send(map[string]any{"type": "span-start", "span": start})
}

// steppedSpans are the open spans of stepped runs: when one ends, its run's spans go out soon
// (the JS runner tells span ends at once), so a step that finished is drawn while another waits.
var steppedSpans sync.Map

func (stepSpanProcessor) OnEnd(span sdktrace.ReadOnlySpan) {
	if run, ok := steppedSpans.LoadAndDelete(span.SpanContext().SpanID()); ok {
		run.(*stepper).flushSoon()
	}
}
func (stepSpanProcessor) Shutdown(context.Context) error   { return nil }
func (stepSpanProcessor) ForceFlush(context.Context) error { return nil }

// handAnsweredTool stands in for a tool answered by hand: genkit Go's chain calls it instead of the
// tool, and it records the tool's span as genkit's tool.v2 action would, marked answered by hand.
type handAnsweredTool struct {
	ai.Tool
	output any
}

func (t handAnsweredTool) RunRawMultipart(ctx context.Context, input any) (*ai.MultipartToolResponse, error) {
	metadata := &tracing.SpanMetadata{Name: t.Name(), Type: "action", Subtype: string(api.ActionTypeToolV2), Metadata: map[string]string{answeredByHandKey: "true"}}
	return tracing.RunInNewSpan(ctx, metadata, input, func(context.Context, any) (*ai.MultipartToolResponse, error) {
		return &ai.MultipartToolResponse{Output: t.output}, nil
	})
}

// handAnswer is the hand-written model's config: the parts it answers with.
type handAnswer struct {
	Parts []handPart `json:"parts"`
}

var (
	handModelOnce sync.Once
	handModel     ai.Model
)

// handWrittenModel defines, once, the model that plays answers written at a pause.
func handWrittenModel(g *genkit.Genkit) ai.Model {
	handModelOnce.Do(func() {
		handModel = genkit.DefineModel(g, handWrittenModelName, &ai.ModelOptions{
			Label:    "Hand-written answer",
			Supports: &ai.ModelSupports{Tools: true, Multiturn: true, SystemRole: true},
		}, func(ctx context.Context, request *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			answer, ok := request.Config.(handAnswer)
			if !ok {
				encoded, _ := json.Marshal(request.Config)
				_ = json.Unmarshal(encoded, &answer)
			}
			message := &ai.Message{Role: ai.RoleModel}
			for _, part := range answer.Parts {
				if part.Text != nil {
					message.Content = append(message.Content, ai.NewTextPart(*part.Text))
				}
				if part.ToolRequest != nil {
					message.Content = append(message.Content, ai.NewToolRequestPart(&ai.ToolRequest{Name: part.ToolRequest.Name, Ref: part.ToolRequest.Ref, Input: part.ToolRequest.Input}))
				}
			}
			return &ai.ModelResponse{Message: message, FinishReason: ai.FinishReasonStop, Request: request}, nil
		})
	})
	return handModel
}
