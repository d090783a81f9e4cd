package agentotel_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	agentotel "github.com/pi-go/agentcore/otel"
)

// harness is an Instrumentation on the SDK's in-memory span recorder and
// manual metric reader.
type harness struct {
	inst   *agentotel.Instrumentation
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
}

func newHarness(cfg agentotel.Config) *harness {
	h := &harness{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	h.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(h.spans))
	cfg.TracerProvider = h.tp
	cfg.MeterProvider = sdkmetric.NewMeterProvider(sdkmetric.WithReader(h.reader))
	h.inst = agentotel.New(cfg)
	return h
}

// tree renders the ended spans as a tree: children in start order, times
// relative to the first span's start, attributes sorted.
func (h *harness) tree() string {
	spans := h.spans.Ended()
	if len(spans) == 0 {
		return "(no spans)\n"
	}
	ids := map[string]bool{}
	origin := spans[0].StartTime()
	for _, s := range spans {
		ids[s.SpanContext().SpanID().String()] = true
		if s.StartTime().Before(origin) {
			origin = s.StartTime()
		}
	}
	children := map[string][]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		parent := s.Parent().SpanID().String()
		if !ids[parent] {
			parent = ""
		}
		children[parent] = append(children[parent], s)
	}
	var b strings.Builder
	var walk func(parent string, depth int)
	walk = func(parent string, depth int) {
		kids := children[parent]
		slices.SortStableFunc(kids, func(x, y sdktrace.ReadOnlySpan) int {
			return cmp.Or(x.StartTime().Compare(y.StartTime()), strings.Compare(x.Name(), y.Name()),
				strings.Compare(attr(x, "gen_ai.tool.call.id"), attr(y, "gen_ai.tool.call.id")))
		})
		for _, s := range kids {
			indent := strings.Repeat("  ", depth)
			fmt.Fprintf(&b, "%s%s [%s] %s..%s %s", indent, s.Name(), s.SpanKind(),
				s.StartTime().Sub(origin), s.EndTime().Sub(origin), s.Status().Code)
			if d := s.Status().Description; d != "" {
				fmt.Fprintf(&b, " %q", d)
			}
			b.WriteString("\n")
			attrs := slices.Clone(s.Attributes())
			slices.SortFunc(attrs, func(x, y attribute.KeyValue) int { return strings.Compare(string(x.Key), string(y.Key)) })
			for _, kv := range attrs {
				fmt.Fprintf(&b, "%s    %s=%s\n", indent, kv.Key, kv.Value.Emit())
			}
			walk(s.SpanContext().SpanID().String(), depth+1)
		}
	}
	walk("", 0)
	return b.String()
}

func attr(s sdktrace.ReadOnlySpan, key string) string {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value.Emit()
		}
	}
	return ""
}

// metrics renders the collected histograms: per metric, its data points
// sorted by attributes, with count, sum, min and max.
func (h *harness) metrics(t *testing.T) string {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, h.reader.Collect(context.Background(), &rm))
	var lines []string
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			header := fmt.Sprintf("%s (%s) %s", m.Name, m.Unit, m.Description)
			var points []string
			switch d := m.Data.(type) {
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					minV, _ := p.Min.Value()
					maxV, _ := p.Max.Value()
					points = append(points, fmt.Sprintf("  %s count=%d sum=%g min=%g max=%g", p.Attributes.Encoded(attribute.DefaultEncoder()), p.Count, p.Sum, minV, maxV))
				}
			case metricdata.Histogram[int64]:
				for _, p := range d.DataPoints {
					minV, _ := p.Min.Value()
					maxV, _ := p.Max.Value()
					points = append(points, fmt.Sprintf("  %s count=%d sum=%d min=%d max=%d", p.Attributes.Encoded(attribute.DefaultEncoder()), p.Count, p.Sum, minV, maxV))
				}
			default:
				points = append(points, fmt.Sprintf("  unexpected data %T", d))
			}
			slices.Sort(points)
			lines = append(lines, header+"\n"+strings.Join(points, "\n"))
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n") + "\n"
}

// sleep waits d on the bubble's clock, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
