// Command stdout runs an instrumented agent on the fake model (no network,
// no key) and prints its spans with the OpenTelemetry stdout exporter, one
// JSON object per span as each ends, then a summary of the histograms.
// The run calls two tools in parallel, one of which fails, and answers.
// Each span's instrumentation scope carries the conventions' schema URL;
// the chat spans show gen_ai.request.stream, the time to the first chunk
// and the tools offered (gen_ai.tool.definitions), the tool spans their
// tool's description.
//
//	go run ./examples/stdout
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	agentotel "github.com/pi-go/agentcore/otel"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "stdout:", err)
		os.Exit(1)
	}
}

type cityArgs struct {
	City string `json:"city" jsonschema:"required"`
}

// tools are a weather tool that takes a moment and a flights tool that
// always fails.
func tools() []agentcore.Tool {
	weather := agentcore.NewTool("weather", "Current weather for a city.",
		func(ctx context.Context, _ string, args cityArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			select {
			case <-time.After(20 * time.Millisecond):
			case <-ctx.Done():
				return agentcore.ToolResult{}, ctx.Err()
			}
			return agentcore.TextResult("18°C and sunny in " + args.City), nil
		})
	flights := agentcore.NewTool("flights", "Flights to a city.",
		func(context.Context, string, cityArgs, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.ToolResult{}, errors.New("flight search is down")
		})
	return []agentcore.Tool{weather, flights}
}

// run prompts the agent once and writes the spans, then the metrics, to w.
func run(ctx context.Context, w io.Writer) error {
	exporter, err := stdouttrace.New(stdouttrace.WithWriter(w), stdouttrace.WithPrettyPrint())
	if err != nil {
		return err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))
	defer tp.Shutdown(ctx)
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer mp.Shutdown(ctx)

	inst := agentotel.New(agentotel.Config{
		TracerProvider: tp, MeterProvider: mp,
		AgentName: "travel", AgentVersion: "1.0.0", AgentDescription: "Plans trips.",
		ToolDefinitions: true,
	})
	fake := agentcoretest.New(
		agentcoretest.Response{
			Content: []agentcore.ContentBlock{
				agentcoretest.ToolCall("call_1", "weather", cityArgs{City: "Lisbon"}),
				agentcoretest.ToolCall("call_2", "flights", cityArgs{City: "Lisbon"}),
			},
			Usage:      agentcore.Usage{Input: 120, Output: 30, TotalTokens: 150},
			ChunkDelay: 5 * time.Millisecond,
		},
		agentcoretest.Response{
			Content:    []agentcore.ContentBlock{agentcore.TextBlock{Text: "Lisbon is sunny; flight search is down."}},
			Usage:      agentcore.Usage{Input: 180, Output: 12, CacheRead: 100, TotalTokens: 292},
			Chunks:     3,
			ChunkDelay: 5 * time.Millisecond,
		},
	)
	agent := inst.NewAgent(agentcore.Options{
		SystemPrompt: "You plan trips.",
		Model:        agentcoretest.Model(),
		StreamFn:     fake.Stream,
		Tools:        tools(),
	})
	if err := agent.Prompt(ctx, "Should I go to Lisbon?"); err != nil {
		return err
	}
	return printMetrics(ctx, w, reader)
}

// printMetrics writes a line per histogram data point: count and sum.
func printMetrics(ctx context.Context, w io.Writer, reader *sdkmetric.ManualReader) error {
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		return err
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					fmt.Fprintf(w, "%s{%s} count=%d sum=%.3f%s\n", m.Name, p.Attributes.Encoded(attribute.DefaultEncoder()), p.Count, p.Sum, m.Unit)
				}
			case metricdata.Histogram[int64]:
				for _, p := range d.DataPoints {
					fmt.Fprintf(w, "%s{%s} count=%d sum=%d %s\n", m.Name, p.Attributes.Encoded(attribute.DefaultEncoder()), p.Count, p.Sum, m.Unit)
				}
			}
		}
	}
	return nil
}
