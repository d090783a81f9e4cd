package agentotel

import (
	"context"
	"slices"
	"time"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/pi-go/agentcore"
)

// WrapStreamFn returns fn recording every model request as a chat span
// ("chat {model}", kind client) and in the gen_ai.client.operation.duration,
// gen_ai.client.token.usage, gen_ai.client.operation.time_to_first_chunk
// and gen_ai.client.operation.time_per_output_chunk histograms. The span's
// parent is the span of the request's ctx, and fn gets a ctx carrying the
// chat span, so that an instrumented HTTP client nests under it. The span
// starts when the returned stream is ranged over (fn is called then) and
// ends with its final event, whose message gives the response attributes.
// A nil fn is returned as is.
//
// The Instrumentation's layer wraps the stream function itself; this is
// the one to give a [agentcore.RunLoop] run without the layer: there the
// request's ctx is the loop's, so the chat spans nest under the span that
// ctx carries (see [Instrumentation.StartRun]).
func (in *Instrumentation) WrapStreamFn(fn agentcore.StreamFn) agentcore.StreamFn {
	if in.disabled || fn == nil {
		return fn
	}
	return func(ctx context.Context, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
		if r := runFromContext(ctx); r != nil {
			r.noteRequest(model, req, opts)
		}
		return in.chat(ctx, fn, model, req, opts)
	}
}

// chat returns the stream of one model request, recorded.
func (in *Instrumentation) chat(ctx context.Context, fn agentcore.StreamFn, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
	return func(yield func(agentcore.AssistantEvent) bool) {
		c := in.startChat(ctx, &model, req, &opts)
		var final *agentcore.AssistantMessage
		defer func() { c.end(final) }()
		stream := fn(c.ctx, model, req, opts)
		if stream == nil {
			return
		}
		stream(func(ev agentcore.AssistantEvent) bool {
			switch e := ev.(type) {
			case *agentcore.DoneEvent:
				final = e.Message
			case *agentcore.ErrorEvent:
				final = e.Message
			case *agentcore.TextStartEvent, *agentcore.TextDeltaEvent, *agentcore.ThinkingStartEvent,
				*agentcore.ThinkingDeltaEvent, *agentcore.ToolCallStartEvent, *agentcore.ToolCallDeltaEvent:
				c.chunk()
			}
			return yield(ev)
		})
	}
}

// chatCall is one model request being recorded.
type chatCall struct {
	in    *Instrumentation
	ctx   context.Context
	span  trace.Span
	start time.Time
	// base are the attributes the span and the metrics share.
	base []attribute.KeyValue

	// timed is whether the chunks' times are recorded; gaps too whether
	// the time between chunks is.
	timed, gaps bool
	first, last time.Time // of the first and the latest chunk
	gapTimes    []float64 // seconds from each chunk to the next
}

func (in *Instrumentation) startChat(ctx context.Context, model *agentcore.Model, req agentcore.Request, opts *agentcore.StreamOptions) *chatCall {
	base := append(make([]attribute.KeyValue, 0, 8),
		semconv.GenAIOperationNameChat,
		semconv.GenAIProviderNameKey.String(providerName(*model)),
		semconv.GenAIRequestModel(model.ID))
	base = append(base, server(model.BaseURL)...)
	attrs := append(base[:len(base):len(base)], requestAttrs(opts)...)
	c := &chatCall{in: in, start: time.Now(), base: base}
	c.ctx, c.span = in.tracer.Start(ctx, spanName(opChat, model.ID),
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...), trace.WithTimestamp(c.start))
	if c.span.IsRecording() {
		c.span.SetAttributes(in.requestContent(req.Messages, true)...)
	}
	c.gaps = in.chunkGap.Enabled(c.ctx)
	c.timed = c.gaps || c.span.IsRecording() || in.firstChunk.Enabled(c.ctx)
	return c
}

// requestAttrs are the request parameters of opts the conventions name:
// every request streams.
func requestAttrs(opts *agentcore.StreamOptions) []attribute.KeyValue {
	attrs := []attribute.KeyValue{semconv.GenAIRequestStream(true)}
	if opts.MaxTokens > 0 {
		attrs = append(attrs, semconv.GenAIRequestMaxTokens(opts.MaxTokens))
	}
	if opts.Temperature != nil {
		attrs = append(attrs, semconv.GenAIRequestTemperature(*opts.Temperature))
	}
	if opts.SessionID != "" {
		attrs = append(attrs, semconv.GenAIConversationID(opts.SessionID))
	}
	return attrs
}

// chunk notes the arrival of a chunk of the response: an event that opens
// a content block or adds to one.
func (c *chatCall) chunk() {
	if !c.timed {
		return
	}
	now := time.Now()
	switch {
	case c.first.IsZero():
		c.first = now
	case c.gaps:
		c.gapTimes = append(c.gapTimes, now.Sub(c.last).Seconds())
	}
	c.last = now
}

// end records the request's outcome: final is the message of its final
// event, nil when the stream ended without one.
func (c *chatCall) end(final *agentcore.AssistantMessage) {
	in := c.in
	ended := time.Now()
	elapsed := ended.Sub(c.start).Seconds()
	toFirst := -1.0
	if !c.first.IsZero() {
		toFirst = c.first.Sub(c.start).Seconds()
	}
	errType, errText := ErrorTypeIncomplete, agentcore.ErrStreamIncomplete.Error()
	responseModel := ""
	if final != nil {
		errType, errText = errorType(final), final.ErrorMessage
		responseModel = final.ResponseModel
		if responseModel == "" {
			responseModel = final.Model
		}
	}
	if c.span.IsRecording() {
		var attrs []attribute.KeyValue
		if toFirst >= 0 {
			attrs = append(attrs, semconv.GenAIResponseTimeToFirstChunk(toFirst))
		}
		if final != nil {
			if responseModel != "" {
				attrs = append(attrs, semconv.GenAIResponseModel(responseModel))
			}
			if final.ResponseID != "" {
				attrs = append(attrs, semconv.GenAIResponseID(final.ResponseID))
			}
			attrs = appendOutcome(attrs, final.StopReason, final.Usage)
			if in.capture {
				attrs = append(attrs, in.outputContent(final))
			}
		}
		setOutcome(c.span, attrs, errType, errText)
	}
	c.span.End(trace.WithTimestamp(ended))

	attrs := c.base
	if responseModel != "" {
		attrs = append(attrs[:len(attrs):len(attrs)], semconv.GenAIResponseModel(responseModel))
	}
	if in.opDuration.Enabled(c.ctx) {
		durAttrs := attrs
		if errType != "" {
			durAttrs = append(slices.Clip(durAttrs), semconv.ErrorTypeKey.String(errType))
		}
		in.opDuration.RecordSet(c.ctx, elapsed, attribute.NewSet(durAttrs...))
	}
	if toFirst >= 0 && (in.firstChunk.Enabled(c.ctx) || len(c.gapTimes) > 0) {
		set := attribute.NewSet(attrs...)
		in.firstChunk.RecordSet(c.ctx, toFirst, set)
		for _, gap := range c.gapTimes {
			in.chunkGap.RecordSet(c.ctx, gap, set)
		}
	}
	if final != nil && hasUsage(final.Usage) && in.tokenUsage.Enabled(c.ctx) {
		for _, tokens := range [2]struct {
			kind  attribute.KeyValue
			count int64
		}{{semconv.GenAITokenTypeInput, inputTokens(final.Usage)}, {semconv.GenAITokenTypeOutput, final.Usage.Output}} {
			in.tokenUsage.RecordSet(c.ctx, tokens.count, attribute.NewSet(append(slices.Clip(attrs), tokens.kind)...))
		}
	}
}
