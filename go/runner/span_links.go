package main

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// The links Loopscope records on a generate's root span, as the JS runner does
// (lib/runner/answer-link.ts): a resume names the interrupted generate it answers
// (loopscope.link.type = answers-interrupt), so the graph needs no guess; a replayed generate
// names the recorded generate it replays (replays), so the trace list nests it under its
// recording.

// SpanRef names a span: the interrupted generate's root, or the recorded one a replay replays.
type SpanRef struct {
	TraceID string `json:"traceId"`
	SpanID  string `json:"spanId"`
}

type linkKey string

const (
	answersLink linkKey = "answers-interrupt"
	replaysLink linkKey = "replays"
)

func withLink(ctx context.Context, kind linkKey, ref *SpanRef) context.Context {
	if ref == nil {
		return ctx
	}
	return context.WithValue(ctx, kind, ref)
}

func withAnswers(ctx context.Context, ref *SpanRef) context.Context {
	return withLink(ctx, answersLink, ref)
}

func withReplays(ctx context.Context, ref *SpanRef) context.Context {
	return withLink(ctx, replaysLink, ref)
}

// linkProcessor adds each link the context carries when a generate's root span starts.
type linkProcessor struct{}

func (linkProcessor) OnStart(ctx context.Context, span sdktrace.ReadWriteSpan) {
	if span.Parent().IsValid() || span.Name() != "generate" {
		return
	}
	for _, kind := range []linkKey{answersLink, replaysLink} {
		ref, ok := ctx.Value(kind).(*SpanRef)
		if !ok {
			continue
		}
		traceID, err := trace.TraceIDFromHex(ref.TraceID)
		if err != nil {
			continue
		}
		spanID, err := trace.SpanIDFromHex(ref.SpanID)
		if err != nil {
			continue
		}
		span.AddLink(trace.Link{
			SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: spanID, TraceFlags: trace.FlagsSampled}),
			Attributes:  []attribute.KeyValue{attribute.String("loopscope.link.type", string(kind))},
		})
	}
}

func (linkProcessor) OnEnd(sdktrace.ReadOnlySpan)      {}
func (linkProcessor) Shutdown(context.Context) error   { return nil }
func (linkProcessor) ForceFlush(context.Context) error { return nil }
