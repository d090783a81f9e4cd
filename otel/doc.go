// Package agentotel records the runs of agentcore agents as OpenTelemetry
// traces and metrics, following the GenAI semantic conventions: a service
// that already exports its HTTP requests sees an agent run beside them,
// with the model it called, for how long, how many tokens, which tools ran
// and which failed.
//
// # Turning it on
//
// Build an [Instrumentation] from a [Config] (the tracer and meter
// providers, an agent name, whether to capture content) and make the Agent
// with it:
//
//	inst := agentotel.New(agentotel.Config{TracerProvider: tp, MeterProvider: mp, AgentName: "coder"})
//	agent := inst.NewAgent(agentcore.Options{Model: model, StreamFn: provider, Tools: tools})
//	err := agent.Prompt(ctx, "fix the failing tests") // ctx's span is the run's parent
//
// [Instrumentation.NewAgent] is the one way for an Agent; give it the
// provider's stream function and the tools unwrapped. The program
// examples/stdout of this module does this on the fake model (no network,
// no key) and prints the spans and metrics of a run:
//
//	cd otel && go run ./examples/stdout
//
// Users of [agentcore.RunLoop] assemble the same parts:
// [Instrumentation.StartRun] for the run span and the ctx to run under,
// [Instrumentation.WrapStreamFn] for the model requests and
// [Instrumentation.WrapTools] for the tool calls. A loop's events reach its
// reader later, on another goroutine, so there the tool spans are the
// wrappers' own: they cover Execute only, and a call that never executes
// (an unknown tool, invalid arguments, a blocked call) has none.
//
// # Spans
//
// A run is one span, "invoke_agent" (or "invoke_agent {AgentName}"), kind
// internal, from agent_start to agent_end, a child of the span of the ctx
// given to Prompt or Continue. Under it:
//
//   - one "chat {model}" span (kind client) per model request, from the
//     call of the stream function to its final event. The stream function
//     gets a ctx carrying it, so an instrumented HTTP client nests its
//     request under it.
//   - one "execute_tool {name}" span (kind internal) per tool call, from
//     its tool_execution_start to its tool_execution_end event: its
//     preparation (argument validation, BeforeToolCall), Execute and
//     AfterToolCall. The calls of a parallel batch overlap. A tool's
//     Execute gets a ctx carrying its call's span.
//
// Their attributes are the conventions': gen_ai.operation.name
// (invoke_agent, chat, execute_tool), gen_ai.provider.name (the model's
// Provider), gen_ai.request.model and gen_ai.response.model,
// gen_ai.response.id, gen_ai.response.finish_reasons (the stop reason:
// stop, length, tool_call, error, aborted), gen_ai.usage.input_tokens
// (pi's input plus its cache reads and writes, as the conventions count
// it), gen_ai.usage.output_tokens, gen_ai.usage.cache_read.input_tokens,
// gen_ai.usage.cache_creation.input_tokens,
// gen_ai.usage.reasoning.output_tokens, gen_ai.conversation.id (the
// request's SessionID), gen_ai.request.max_tokens and
// gen_ai.request.temperature, server.address and server.port (from the
// model's BaseURL), gen_ai.agent.name and gen_ai.agent.id, gen_ai.tool.name,
// gen_ai.tool.call.id and gen_ai.tool.type. The run span carries the
// model of its first request and the usage summed over its responses.
//
// A failure sets error.type and an error status: a response with
// stopReason "error" (its provider's HTTP status, "429" say, when the
// message's Err is a [agentcore.ProviderError] that has one, else
// [ErrorTypeError]; the status is its ErrorMessage, cut to
// [MaxStatusBytes]) or "aborted" ([ErrorTypeAborted]), a stream without
// a final event ([ErrorTypeIncomplete]), a tool call whose result is an error
// ([ErrorTypeTool], or [ErrorTypeAborted] once the run is aborted), and a
// run whose last response failed, which includes the Agent's failure
// sequence after a failing hook (the run's error.type is its last
// response's).
//
// # Metrics
//
// Four histograms, with the conventions' bucket boundaries:
// gen_ai.client.operation.duration (seconds, per model request),
// gen_ai.client.token.usage (tokens per request and gen_ai.token.type
// input or output, when the response reports usage),
// gen_ai.execute_tool.duration (seconds, per tool call, the span's
// duration) and gen_ai.invoke_agent.duration (seconds, per run). Their
// attributes are the low-cardinality ones of the spans: operation,
// provider, request and response model, server, tool name and type, agent
// name, error.type.
//
// # Content
//
// Message content is not recorded unless [Config].CaptureContent is set,
// as the conventions recommend. Then chat spans carry
// gen_ai.system_instructions, gen_ai.input.messages and
// gen_ai.output.messages in the conventions' JSON shape (role and parts:
// text, reasoning, tool_call, tool_call_response; an image is a part of
// type "image" with its MIME type, never its data), and tool spans
// gen_ai.tool.call.arguments and gen_ai.tool.call.result. Each text,
// argument object and result is capped at [Config].MaxContentBytes.
//
// # What it uses of the Agent
//
// NewAgent sets no hook: the Hooks of the Options run as given. It wraps
// the StreamFn and each Tool's Execute, and subscribes one listener before
// any of the caller's. That listener reads agent_start and agent_end (the
// run span), message_end of assistant messages with tool calls and
// turn_end (to find a call's span from its Execute), and
// tool_execution_start and tool_execution_end (the tool spans); it
// ignores the others, keeps of what it reads only the current turn's
// assistant message (until turn_end), modifies nothing, and never waits
// on anything but its own short lock. Unsubscribing is not offered: the
// listener lives as long as the Agent.
//
// # Cost
//
// With the OpenTelemetry API's no-op providers (trace/noop and
// metric/noop), New returns an Instrumentation whose wrappers are the
// wrapped values themselves and whose NewAgent subscribes nothing: nothing
// is added (BenchmarkRun counts the same allocations as without it). With
// providers that record nothing for a run and no histogram enabled (the
// global providers before any is installed, a sampler that drops the run),
// the run costs one span start, and its requests and tool calls run
// unwrapped; a sampled-out run still hands its span context to the stream
// function, for propagation. Recording with the SDK costs
// about one allocation per attribute (BenchmarkRun measures it).
//
// Captured content is the whole request of every model call, so a long
// conversation records its history again at each request: cap it with
// MaxContentBytes, or with the SDK's span limits.
package agentotel
