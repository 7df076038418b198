package main

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// An answer's link: a resume Loopscope starts records which interrupted generate it answers as
// an OTel span link on its generate's root span (loopscope.link.type = answers-interrupt), as
// the JS runner does (lib/runtime/answer-link.ts); the graph then needs no guess.
type answersKey struct{}

// SpanRef names a span: the interrupted generate's root.
type SpanRef struct {
	TraceID string `json:"traceId"`
	SpanID  string `json:"spanId"`
}

func withAnswers(ctx context.Context, ref *SpanRef) context.Context {
	if ref == nil {
		return ctx
	}
	return context.WithValue(ctx, answersKey{}, ref)
}

// answerLinkProcessor adds the link when a generate's root span starts in a context that answers one.
type answerLinkProcessor struct{}

func (answerLinkProcessor) OnStart(ctx context.Context, span sdktrace.ReadWriteSpan) {
	ref, ok := ctx.Value(answersKey{}).(*SpanRef)
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
		Attributes:  []attribute.KeyValue{attribute.String("loopscope.link.type", "answers-interrupt")},
	})
}

func (answerLinkProcessor) OnEnd(sdktrace.ReadOnlySpan)      {}
func (answerLinkProcessor) Shutdown(context.Context) error   { return nil }
func (answerLinkProcessor) ForceFlush(context.Context) error { return nil }
