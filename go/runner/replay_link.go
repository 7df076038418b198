package main

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// A replayed generate's root span links to the recorded generate it replays
// (loopscope.link.type = replays), as the JS runner's replays do (lib/runtime/answer-link.ts):
// the trace list nests a replay under its recording.
type replaysKey struct{}

func withReplays(ctx context.Context, ref *SpanRef) context.Context {
	if ref == nil {
		return ctx
	}
	return context.WithValue(ctx, replaysKey{}, ref)
}

type replayLinkProcessor struct{}

func (replayLinkProcessor) OnStart(ctx context.Context, span sdktrace.ReadWriteSpan) {
	ref, ok := ctx.Value(replaysKey{}).(*SpanRef)
	if !ok || span.Parent().IsValid() || span.Name() != "generate" {
		return
	}
	traceID, err := trace.TraceIDFromHex(ref.TraceID)
	if err != nil {
		return
	}
	spanID, err := trace.SpanIDFromHex(ref.SpanID)
	if err != nil {
		return
	}
	span.AddLink(trace.Link{
		SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: spanID, TraceFlags: trace.FlagsSampled}),
		Attributes:  []attribute.KeyValue{attribute.String("loopscope.link.type", "replays")},
	})
}

func (replayLinkProcessor) OnEnd(sdktrace.ReadOnlySpan)      {}
func (replayLinkProcessor) Shutdown(context.Context) error   { return nil }
func (replayLinkProcessor) ForceFlush(context.Context) error { return nil }
