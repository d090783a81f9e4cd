package agentotel_test

import (
	"context"
	"testing"

	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	agentotel "github.com/pi-go/agentcore/otel"
)

// BenchmarkRun runs one two-turn run (two parallel tool calls, then an
// answer) per iteration: uninstrumented, with the API's no-op providers,
// with the global providers unset, and with the SDK recording (spans
// sampled, no exporter; metrics aggregated by a manual reader).
func BenchmarkRun(b *testing.B) {
	echo := agentcore.NewTool("echo", "Echoes.", func(_ context.Context, _ string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("ok"), nil
	})
	fake := agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		msgs := call.Request.Messages
		if _, ok := msgs[len(msgs)-1].(*agentcore.ToolResultMessage); ok {
			return agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "done"}}, Usage: usage(100, 10, 0)}
		}
		return agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "echo", nil), agentcoretest.ToolCall("c2", "echo", nil))
	})
	opts := agentcore.Options{Model: model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{echo}}
	for _, bb := range []struct {
		name     string
		newAgent func(agentcore.Options) *agentcore.Agent
	}{
		{"bare", agentcore.New},
		{"noop-providers", agentotel.New(agentotel.Config{TracerProvider: tracenoop.NewTracerProvider(), MeterProvider: metricnoop.NewMeterProvider()}).NewAgent},
		{"global-unset", agentotel.New(agentotel.Config{}).NewAgent},
		{"sdk", agentotel.New(agentotel.Config{
			TracerProvider: sdktrace.NewTracerProvider(),
			MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader())),
		}).NewAgent},
	} {
		b.Run(bb.name, func(b *testing.B) {
			agent := bb.newAgent(opts)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if err := agent.Reset(); err != nil {
					b.Fatal(err)
				}
				if err := agent.Prompt(ctx, "go"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
