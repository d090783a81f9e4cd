package agentotel

import (
	"context"
	"slices"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/pi-go/agentcore"
)

// WrapStreamFn returns fn recording every model request as a chat span
// ("chat {model}", kind client) and in the gen_ai.client.operation.duration
// and gen_ai.client.token.usage histograms. The span's parent is the span
// of the request's ctx, and fn gets a ctx carrying the chat span, so that
// an instrumented HTTP client nests under it. The span starts when the
// returned stream is ranged over (fn is called then) and ends with its
// final event, whose message gives the response attributes. A nil fn is
// returned as is.
//
// It is the stream function of [Instrumentation.NewAgent], and the one to
// give [agentcore.RunLoop]: there the request's ctx is the loop's, so the
// chat spans nest under the span that ctx carries (see
// [Instrumentation.StartRun]).
func (in *Instrumentation) WrapStreamFn(fn agentcore.StreamFn) agentcore.StreamFn {
	if in.disabled || fn == nil {
		return fn
	}
	return func(ctx context.Context, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
		if r := runFromContext(ctx); r != nil {
			r.noteRequest(model, opts)
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
}

func (in *Instrumentation) startChat(ctx context.Context, model *agentcore.Model, req agentcore.Request, opts *agentcore.StreamOptions) *chatCall {
	base := append(make([]attribute.KeyValue, 0, 8),
		keyOperationName.String(opChat),
		keyProviderName.String(providerName(*model)),
		keyRequestModel.String(model.ID))
	base = append(base, server(model.BaseURL)...)
	attrs := base
	if opts.MaxTokens > 0 || opts.Temperature != nil || opts.SessionID != "" {
		attrs = append(attrs[:len(attrs):len(attrs)], requestAttrs(opts)...)
	}
	c := &chatCall{in: in, start: time.Now(), base: base}
	c.ctx, c.span = in.tracer.Start(ctx, spanName(opChat, model.ID),
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...), trace.WithTimestamp(c.start))
	if in.capture && c.span.IsRecording() {
		c.span.SetAttributes(in.inputContent(req.Messages)...)
	}
	return c
}

// requestAttrs are the request parameters of opts the conventions name.
func requestAttrs(opts *agentcore.StreamOptions) []attribute.KeyValue {
	var attrs []attribute.KeyValue
	if opts.MaxTokens > 0 {
		attrs = append(attrs, keyRequestMaxTokens.Int(opts.MaxTokens))
	}
	if opts.Temperature != nil {
		attrs = append(attrs, keyRequestTemp.Float64(*opts.Temperature))
	}
	if opts.SessionID != "" {
		attrs = append(attrs, keyConversationID.String(opts.SessionID))
	}
	return attrs
}

// end records the request's outcome: final is the message of its final
// event, nil when the stream ended without one.
func (c *chatCall) end(final *agentcore.AssistantMessage) {
	in := c.in
	ended := time.Now()
	elapsed := ended.Sub(c.start).Seconds()
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
		if final != nil {
			if responseModel != "" {
				attrs = append(attrs, keyResponseModel.String(responseModel))
			}
			if final.ResponseID != "" {
				attrs = append(attrs, keyResponseID.String(final.ResponseID))
			}
			attrs = appendOutcome(attrs, final.StopReason, final.Usage)
			if in.capture {
				attrs = append(attrs, in.outputContent(final)...)
			}
		}
		setOutcome(c.span, attrs, errType, errText)
	}
	c.span.End(trace.WithTimestamp(ended))

	attrs := c.base
	if responseModel != "" {
		attrs = append(attrs[:len(attrs):len(attrs)], keyResponseModel.String(responseModel))
	}
	if in.opDuration.Enabled(c.ctx) {
		durAttrs := slices.Clone(attrs)
		if errType != "" {
			durAttrs = append(durAttrs, keyErrorType.String(errType))
		}
		in.opDuration.Record(c.ctx, elapsed, metric.WithAttributeSet(attribute.NewSet(durAttrs...)))
	}
	if final != nil && hasUsage(final.Usage) && in.tokenUsage.Enabled(c.ctx) {
		for _, tokens := range [2]struct {
			kind  string
			count int64
		}{{"input", inputTokens(final.Usage)}, {"output", final.Usage.Output}} {
			kvs := append(slices.Clip(attrs), keyTokenType.String(tokens.kind))
			in.tokenUsage.Record(c.ctx, tokens.count, metric.WithAttributeSet(attribute.NewSet(kvs...)))
		}
	}
}
