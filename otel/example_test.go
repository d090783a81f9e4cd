package agentotel_test

import (
	"context"
	"fmt"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	agentotel "github.com/pi-go/agentcore/otel"
)

// printSpans prints the ended spans in the order they ended, each with
// its parent's name.
func printSpans(spans []sdktrace.ReadOnlySpan) {
	names := map[string]string{}
	for _, s := range spans {
		names[s.SpanContext().SpanID().String()] = s.Name()
	}
	for _, s := range spans {
		parent := names[s.Parent().SpanID().String()]
		if parent == "" {
			parent = "-"
		}
		fmt.Printf("%-22s under %s\n", s.Name(), parent)
	}
}

// An Agent made by NewAgent records each run: its span, a span per model
// request and one per tool call, under the span of the ctx given to Prompt.
func ExampleInstrumentation_NewAgent() {
	recorder := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
	inst := agentotel.New(agentotel.Config{TracerProvider: tp, AgentName: "helper"})

	clock := agentcore.NewTool("clock", "Tells the time.", func(context.Context, string, struct{}, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("noon"), nil
	})
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "clock", nil)),
		agentcoretest.TextResponse("It is noon."),
	)
	agent := inst.NewAgent(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{clock}})

	ctx, request := tp.Tracer("app").Start(context.Background(), "GET /ask")
	if err := agent.Prompt(ctx, "What time is it?"); err != nil {
		fmt.Println(err)
	}
	request.End()
	printSpans(recorder.Ended())
	// Output:
	// chat fake-model        under invoke_agent helper
	// execute_tool clock     under invoke_agent helper
	// chat fake-model        under invoke_agent helper
	// invoke_agent helper    under GET /ask
	// GET /ask               under -
}

// RunLoop users assemble the parts: StartRun for the run span,
// WrapStreamFn and WrapTools for the requests and tool calls.
func ExampleInstrumentation_StartRun() {
	recorder := tracetest.NewSpanRecorder()
	inst := agentotel.New(agentotel.Config{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))})
	fake := agentcoretest.New(agentcoretest.TextResponse("hello"))
	cfg := agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: inst.WrapStreamFn(fake.Stream)}

	ctx, run := inst.StartRun(context.Background(), cfg.Model)
	loop, err := agentcore.RunLoop(ctx,
		[]agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("hi")}},
		agentcore.AgentContext{Tools: inst.WrapTools(nil)}, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	for range loop.Events() {
	}
	run.End(loop.Wait())
	printSpans(recorder.Ended())
	// Output:
	// chat fake-model        under invoke_agent
	// invoke_agent           under -
}
