package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Stop, for a generate call of any mode (docs/architecture.md, "Stop"), as the JS runner's
// lib/runner/request-stop.ts: Stop cancels the call's context and its stepper, which ends a call
// between steps or at a pause genkit Go's own way. A goroutine cannot be stopped from outside, so
// a tool that never looks at its context would hold the call forever: a call with a tool
// executing is answered at once, without it (abandoned), as is one that has not ended
// stopGrace after the stop. Its open spans are ended as stopped — genkit Go's shape of a failed
// span, marked closed by Loopscope — and exported before the answer; spans it starts later are
// dropped. Other calls of this runner go on: it is not killed (the server replaces it once it
// holds no call: lib/runtimes/genkit-go/run/go-runner-service.ts).

// stopGrace is how long a stopped call with no tool executing gets to end by itself.
const stopGrace = time.Second

const (
	closedByKey        = "loopscope:closed-by"
	stoppedSpanMessage = "The run was stopped by the user before this span ended (closed by Loopscope)."
)

// stoppable is one generate call Stop can reach.
type stoppable struct {
	runID     string
	cancel    context.CancelFunc
	stepper   *stepper
	mu        sync.Mutex
	open      map[trace.SpanID]sdktrace.ReadWriteSpan
	tools     map[trace.SpanID]string
	traceIDs  []string
	stopped   bool
	over      bool
	abandoned chan failure
}

type stoppableKey struct{}

// The calls in flight, by run id.
var calls = struct {
	mu   sync.Mutex
	runs map[string]*stoppable
}{runs: map[string]*stoppable{}}

// startStoppable registers a generate call for Stop (a call without a run id is not reachable)
// and returns its context; done forgets it.
func startStoppable(ctx context.Context, cmd command) (context.Context, *stoppable, func()) {
	ctx, cancel := context.WithCancel(ctx)
	call := &stoppable{runID: cmd.RunID, cancel: cancel, open: map[trace.SpanID]sdktrace.ReadWriteSpan{}, tools: map[trace.SpanID]string{}, abandoned: make(chan failure, 1)}
	if cmd.RunID != "" {
		calls.mu.Lock()
		calls.runs[cmd.RunID] = call
		calls.mu.Unlock()
	}
	return context.WithValue(ctx, stoppableKey{}, call), call, func() {
		call.settle()
		cancel()
		calls.mu.Lock()
		defer calls.mu.Unlock()
		if calls.runs[cmd.RunID] == call {
			delete(calls.runs, cmd.RunID)
		}
	}
}

// stopRun is the `stop` command: false when no call of the run is in flight here.
func stopRun(runID string) bool {
	calls.mu.Lock()
	call := calls.runs[runID]
	calls.mu.Unlock()
	if call == nil {
		return false
	}
	call.stop()
	return true
}

func (c *stoppable) stop() {
	c.mu.Lock()
	if c.stopped || c.over {
		c.mu.Unlock()
		return
	}
	c.stopped = true
	tool := c.runningToolLocked()
	c.mu.Unlock()
	if c.stepper != nil {
		c.stepper.stop()
	}
	c.cancel()
	if tool != "" {
		c.abandon(abandonedWords(tool))
		return
	}
	time.AfterFunc(stopGrace, func() {
		c.mu.Lock()
		late := c.runningToolLocked()
		c.mu.Unlock()
		if late != "" {
			c.abandon(abandonedWords(late))
			return
		}
		c.abandon(fmt.Sprintf("The run was stopped by the user and did not end within %d s, so Loopscope did not wait for it.", int(stopGrace.Seconds())))
	})
}

func abandonedWords(tool string) string {
	return fmt.Sprintf("The run was stopped by the user while tool '%s' was running; Loopscope did not wait for the tool (a goroutine cannot be interrupted). Other Go runs went on.", tool)
}

// runningToolLocked names a tool of the call executing now: an open genkit tool action span.
func (c *stoppable) runningToolLocked() string {
	for id, name := range c.tools {
		if _, open := c.open[id]; open {
			return name
		}
	}
	return ""
}

// isOver is true once the call was answered, by itself or abandoned.
func (c *stoppable) isOver() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.over
}

// settle: the call answered by itself; nothing is left to abandon.
func (c *stoppable) settle() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.over = true
}

// abandon ends the call's open spans as stopped and answers the call without waiting for it.
func (c *stoppable) abandon(message string) {
	c.mu.Lock()
	if c.over {
		c.mu.Unlock()
		return
	}
	c.over = true
	open := make([]sdktrace.ReadWriteSpan, 0, len(c.open))
	for _, span := range c.open {
		open = append(open, span)
	}
	c.mu.Unlock()
	for _, span := range open {
		closeStopped(span)
	}
	c.abandoned <- failure{Message: message, Status: "CANCELLED"}
}

// closeStopped ends a span genkit Go left open, in genkit's shape of a failed span (genkit:state =
// error, an error status), saying the user stopped the run and Loopscope ended the span.
func closeStopped(span sdktrace.ReadWriteSpan) {
	named := false
	for _, kv := range span.Attributes() {
		if kv.Key == "genkit:name" {
			named = true
		}
	}
	if !named {
		span.SetAttributes(attribute.String("genkit:name", span.Name()))
	}
	span.SetAttributes(attribute.String("genkit:state", "error"), attribute.String(closedByKey, "run-stopped"))
	span.SetStatus(codes.Error, stoppedSpanMessage)
	span.End()
}

// stoppedResult is the answer of an abandoned call: the traces it started and why it ended.
func (c *stoppable) stoppedResult(requestID string, why failure) result {
	c.mu.Lock()
	defer c.mu.Unlock()
	answer := result{Type: "result", RequestID: requestID, TraceIDs: append([]string{}, c.traceIDs...), Failure: &why, CodeLeftRunning: true}
	if len(answer.TraceIDs) > 0 {
		answer.TraceID = answer.TraceIDs[len(answer.TraceIDs)-1]
	}
	return answer
}

// stoppableSpans keeps each call's open spans (which of them are tools), and marks the spans an
// abandoned call starts, which are not exported.
type stoppableSpans struct{}

// Spans by id: their call (to forget them when they end), and those of abandoned calls.
var (
	spanCalls     sync.Map
	abandonedSpan sync.Map
)

func (stoppableSpans) OnStart(ctx context.Context, span sdktrace.ReadWriteSpan) {
	call, ok := ctx.Value(stoppableKey{}).(*stoppable)
	if !ok {
		return
	}
	id := span.SpanContext().SpanID()
	call.mu.Lock()
	defer call.mu.Unlock()
	if call.over {
		abandonedSpan.Store(id, true)
		return
	}
	traceID := span.SpanContext().TraceID().String()
	if len(call.traceIDs) == 0 || !containsString(call.traceIDs, traceID) {
		call.traceIDs = append(call.traceIDs, traceID)
	}
	call.open[id] = span
	if isToolSpan(span) {
		call.tools[id] = span.Name()
	}
	spanCalls.Store(id, call)
}

func (stoppableSpans) OnEnd(span sdktrace.ReadOnlySpan) {
	value, ok := spanCalls.LoadAndDelete(span.SpanContext().SpanID())
	if !ok {
		return
	}
	call := value.(*stoppable)
	call.mu.Lock()
	defer call.mu.Unlock()
	delete(call.open, span.SpanContext().SpanID())
	delete(call.tools, span.SpanContext().SpanID())
}
func (stoppableSpans) Shutdown(context.Context) error   { return nil }
func (stoppableSpans) ForceFlush(context.Context) error { return nil }

// isToolSpan: genkit Go's tool actions start with genkit:type = action and a tool subtype.
func isToolSpan(span sdktrace.ReadWriteSpan) bool {
	var kind, subtype string
	for _, kv := range span.Attributes() {
		switch kv.Key {
		case "genkit:type":
			kind = kv.Value.Emit()
		case "genkit:metadata:subtype":
			subtype = kv.Value.Emit()
		}
	}
	return kind == "action" && (subtype == "tool" || subtype == "tool.v2")
}

func containsString(values []string, value string) bool {
	for _, candidate := range values {
		if candidate == value {
			return true
		}
	}
	return false
}

// exportUnlessAbandoned hands every ended span to the exporter's processor, except those an
// abandoned call started after it was answered: the run's trace ends where Stop ended it.
type exportUnlessAbandoned struct {
	next sdktrace.SpanProcessor
}

func (p exportUnlessAbandoned) OnStart(ctx context.Context, span sdktrace.ReadWriteSpan) {
	p.next.OnStart(ctx, span)
}

func (p exportUnlessAbandoned) OnEnd(span sdktrace.ReadOnlySpan) {
	if _, dropped := abandonedSpan.LoadAndDelete(span.SpanContext().SpanID()); dropped {
		return
	}
	p.next.OnEnd(span)
}

func (p exportUnlessAbandoned) Shutdown(ctx context.Context) error   { return p.next.Shutdown(ctx) }
func (p exportUnlessAbandoned) ForceFlush(ctx context.Context) error { return p.next.ForceFlush(ctx) }
