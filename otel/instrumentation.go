package agentotel

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/genaiconv"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// ScopeName is the instrumentation scope of the tracer and meter.
const ScopeName = "github.com/pi-go/agentcore/otel"

// SchemaURL is the schema of the semantic conventions the spans and metrics
// follow, given to the tracer and the meter: semconv 1.41.0.
const SchemaURL = semconv.SchemaURL

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

	// AgentName, when set, is gen_ai.agent.name on the run spans and on the
	// run and tool metrics, and names the run span "invoke_agent {AgentName}".
	AgentName string
	// AgentID, when set, is gen_ai.agent.id on the run spans.
	AgentID string
	// AgentVersion, when set, is gen_ai.agent.version on the run spans.
	AgentVersion string
	// AgentDescription, when set, is gen_ai.agent.description on the run
	// spans.
	AgentDescription string

	// CaptureContent records message content, as the conventions'
	// opt-in attributes: gen_ai.system_instructions, gen_ai.input.messages
	// and gen_ai.output.messages on chat and run spans,
	// gen_ai.tool.call.arguments on tool spans and gen_ai.tool.call.result
	// on those of calls that succeeded, and the error text of a failed tool
	// call as its span status. Content may hold personal or secret data:
	// leave it off unless the trace backend may hold it.
	CaptureContent bool
	// ToolDefinitions records the opt-in gen_ai.tool.definitions on chat
	// and run spans: the type, name and description of each tool the model
	// is offered (not their parameter schemas, which the conventions leave
	// out by default as large). It is independent of CaptureContent.
	ToolDefinitions bool
	// MaxContentBytes caps each recorded content value (a text part, a
	// tool call's arguments, a tool result) in bytes: a longer value is
	// cut at a UTF-8 boundary and ends with "…", within the cap; arguments
	// and results that are JSON are recorded as structured values only
	// when within the cap, else as their capped text. Zero means
	// [DefaultMaxContentBytes], a negative value means no cap.
	MaxContentBytes int
}

// Instrumentation records the spans and metrics of agent runs for one
// [Config]. Build it with [New]; it is safe for concurrent use and may
// instrument any number of Agents, stream functions and tools.
type Instrumentation struct {
	tracer   trace.Tracer
	disabled bool // both providers are the API's no-op ones

	opDuration    genaiconv.ClientOperationDuration
	tokenUsage    genaiconv.ClientTokenUsage
	firstChunk    genaiconv.ClientOperationTimeToFirstChunk
	chunkGap      genaiconv.ClientOperationTimePerOutputChunk
	toolDuration  metric.Float64Histogram
	agentDuration metric.Float64Histogram
	holdDuration  metric.Float64Histogram
	// held are the IDs of the calls a Gate held, told by HoldEvents'
	// HeldEvent, until the observer that recorded the call ends its span.
	held sync.Map

	agentName string
	capture   bool
	toolDefs  bool
	maxBytes  int
	runName   string
	// runAttrs are the attributes every run span starts with.
	runAttrs []attribute.KeyValue

	turns turnRegistry
}

// The histograms' bucket boundaries, as the conventions advise.
var (
	durationBuckets = []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}
	agentBuckets    = []float64{0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 25.6, 51.2, 102.4, 204.8, 409.6}
	tokenBuckets    = []float64{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864}
)

// New returns the instrumentation for cfg. When both providers are the
// OpenTelemetry API's no-op providers (trace/noop and metric/noop), every
// wrapper it returns is the wrapped value itself and its layer
// ([Instrumentation.Install]) installs nothing: instrumenting then costs nothing at all. A meter
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
		tracer:    tp.Tracer(ScopeName, trace.WithSchemaURL(SchemaURL)),
		disabled:  noTraces && noMetrics,
		agentName: cfg.AgentName,
		capture:   cfg.CaptureContent,
		toolDefs:  cfg.ToolDefinitions,
		maxBytes:  cfg.MaxContentBytes,
		runName:   spanName(opInvokeAgent, cfg.AgentName),
		runAttrs:  runAttrs(cfg),
	}
	if in.maxBytes == 0 {
		in.maxBytes = DefaultMaxContentBytes
	}
	meter := mp.Meter(ScopeName, metric.WithSchemaURL(SchemaURL))
	seconds := metric.WithExplicitBucketBoundaries(durationBuckets...)
	// A constructor that fails returns a no-op instrument beside its error.
	in.opDuration, _ = genaiconv.NewClientOperationDuration(meter, seconds)
	in.tokenUsage, _ = genaiconv.NewClientTokenUsage(meter, metric.WithExplicitBucketBoundaries(tokenBuckets...))
	in.firstChunk, _ = genaiconv.NewClientOperationTimeToFirstChunk(meter, seconds)
	in.chunkGap, _ = genaiconv.NewClientOperationTimePerOutputChunk(meter, seconds)
	in.toolDuration = float64Histogram(meter, metricToolDuration, "The duration of a single tool execution.", durationBuckets)
	in.agentDuration = float64Histogram(meter, metricAgentDuration, "The end-to-end duration of a single agent invocation.", agentBuckets)
	in.holdDuration = float64Histogram(meter, MetricHoldDuration, "The time a held tool call waited for a person's decision.", holdBuckets)
	return in
}

// float64Histogram is a histogram in seconds, a no-op when the meter
// refuses it.
func float64Histogram(m metric.Meter, name, desc string, buckets []float64) metric.Float64Histogram {
	h, err := m.Float64Histogram(name, metric.WithDescription(desc), metric.WithUnit("s"), metric.WithExplicitBucketBoundaries(buckets...))
	if err != nil {
		return metricnoop.Float64Histogram{}
	}
	return h
}

// metered reports whether any histogram records anything.
func (in *Instrumentation) metered(ctx context.Context) bool {
	return in.opDuration.Enabled(ctx) || in.tokenUsage.Enabled(ctx) || in.firstChunk.Enabled(ctx) ||
		in.chunkGap.Enabled(ctx) || in.toolDuration.Enabled(ctx) || in.agentDuration.Enabled(ctx)
}
