package agentotel

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// ScopeName is the instrumentation scope of the tracer and meter.
const ScopeName = "github.com/pi-go/agentcore/otel"

// DefaultMaxContentBytes is the cap of one recorded content value when
// [Config].MaxContentBytes is zero.
const DefaultMaxContentBytes = 8 << 10

// Config configures [New]. The zero value records spans and metrics with
// the global providers (otel.GetTracerProvider, otel.GetMeterProvider)
// and no message content.
type Config struct {
	// TracerProvider makes the spans; nil means otel.GetTracerProvider().
	TracerProvider trace.TracerProvider
	// MeterProvider makes the histograms; nil means otel.GetMeterProvider().
	MeterProvider metric.MeterProvider

	// AgentName, when set, is gen_ai.agent.name on the run spans and
	// metrics, and names the run span "invoke_agent {AgentName}".
	AgentName string
	// AgentID, when set, is gen_ai.agent.id on the run spans.
	AgentID string

	// CaptureContent records message content, as the conventions'
	// opt-in attributes: gen_ai.system_instructions, gen_ai.input.messages
	// and gen_ai.output.messages on chat spans, gen_ai.tool.call.arguments
	// and gen_ai.tool.call.result on tool spans, and the error text of a
	// failed tool call as its span status. Content may hold personal or
	// secret data: leave it off unless the trace backend may hold it.
	CaptureContent bool
	// MaxContentBytes caps each recorded content value (a text part, a
	// tool call's arguments, a tool result) in bytes: a longer value is
	// cut at a UTF-8 boundary and ends with "…", within the cap. The JSON
	// of the message attributes escapes what needs it, so they may be
	// longer than the sum of their parts. Zero means
	// [DefaultMaxContentBytes], a negative value means no cap.
	MaxContentBytes int
}

// Instrumentation records the spans and metrics of agent runs for one
// [Config]. Build it with [New]; it is safe for concurrent use and may
// instrument any number of Agents, stream functions and tools.
type Instrumentation struct {
	tracer   trace.Tracer
	disabled bool // both providers are the API's no-op ones

	opDuration    metric.Float64Histogram
	tokenUsage    metric.Int64Histogram
	toolDuration  metric.Float64Histogram
	agentDuration metric.Float64Histogram

	agentName  string
	agentID    string
	capture    bool
	maxBytes   int
	runName    string
	runOptions []trace.SpanStartOption

	turns turnRegistry
}

// The histograms' bucket boundaries, as the conventions advise.
var (
	durationBuckets = []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}
	tokenBuckets    = []float64{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864}
)

// New returns the instrumentation for cfg. When both providers are the
// OpenTelemetry API's no-op providers (trace/noop and metric/noop), every
// wrapper it returns is the wrapped value itself and [Instrumentation.NewAgent]
// subscribes nothing: instrumenting then costs nothing at all. A meter
// that refuses an instrument (a provider's error) leaves that histogram a
// no-op; the library never logs.
func New(cfg Config) *Instrumentation {
	tp, mp := cfg.TracerProvider, cfg.MeterProvider
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	_, noTraces := tp.(tracenoop.TracerProvider)
	_, noMetrics := mp.(metricnoop.MeterProvider)
	in := &Instrumentation{
		tracer:    tp.Tracer(ScopeName),
		disabled:  noTraces && noMetrics,
		agentName: cfg.AgentName,
		agentID:   cfg.AgentID,
		capture:   cfg.CaptureContent,
		maxBytes:  cfg.MaxContentBytes,
	}
	in.runName, in.runOptions = runSpan(cfg.AgentName, cfg.AgentID)
	if in.maxBytes == 0 {
		in.maxBytes = DefaultMaxContentBytes
	}
	meter := mp.Meter(ScopeName)
	in.opDuration = float64Histogram(meter, metricOperationDuration, "GenAI operation duration.", "s", durationBuckets)
	in.toolDuration = float64Histogram(meter, metricToolDuration, "Duration of a tool execution.", "s", durationBuckets)
	in.agentDuration = float64Histogram(meter, metricAgentDuration, "Duration of an agent invocation.", "s", durationBuckets)
	tokens, err := meter.Int64Histogram(metricTokenUsage,
		metric.WithDescription("Number of input and output tokens used."), metric.WithUnit("{token}"),
		metric.WithExplicitBucketBoundaries(tokenBuckets...))
	if err != nil {
		tokens = metricnoop.Int64Histogram{}
	}
	in.tokenUsage = tokens
	return in
}

func float64Histogram(m metric.Meter, name, desc, unit string, buckets []float64) metric.Float64Histogram {
	h, err := m.Float64Histogram(name, metric.WithDescription(desc), metric.WithUnit(unit), metric.WithExplicitBucketBoundaries(buckets...))
	if err != nil {
		return metricnoop.Float64Histogram{}
	}
	return h
}

// metered reports whether any histogram records anything.
func (in *Instrumentation) metered(ctx context.Context) bool {
	return in.opDuration.Enabled(ctx) || in.tokenUsage.Enabled(ctx) ||
		in.toolDuration.Enabled(ctx) || in.agentDuration.Enabled(ctx)
}
