// Package agentotel records the runs of agentcore agents as OpenTelemetry
// traces and metrics, following the GenAI semantic conventions: a service
// that already exports its HTTP requests sees an agent run beside them,
// with the model it called, for how long, how many tokens, which tools ran
// and which failed.
//
// # Turning it on
//
// Build an [Instrumentation] from a [Config] (the tracer and meter
// providers, an agent name, whether to capture content) and give it to the
// Agent as a layer ([agentcore.Layer]), first, so that it sees the work of
// the layers after it:
//
//	inst := agentotel.New(agentotel.Config{TracerProvider: tp, MeterProvider: mp, AgentName: "coder"})
//	agent := agentcore.New(agentcore.Options{
//		Model: model, StreamFn: provider, Tools: tools,
//		Layers: []agentcore.Layer{inst, compactor}, // compactor: compaction.New(...)
//	})
//	err := agent.Prompt(ctx, "fix the failing tests") // ctx's span is the run's parent
//
// Give it the provider's stream function and the tools unwrapped: the
// layer wraps them ([Instrumentation.Install]). [Instrumentation.NewAgent]
// is the shorthand for an Agent with the Instrumentation as its first
// layer. A surface that serves an Agent (agui's handler, the MCP server)
// serves its layers too: a run served from an HTTP request whose ctx
// carries a span (otelhttp) is that span's child. The program
// examples/stdout of this module runs on the fake model (no network, no
// key) and prints the spans and metrics of a run:
//
//	cd otel && go run ./examples/stdout
//
// Users of [agentcore.RunLoop] give the Instrumentation in
// [agentcore.LoopConfig].Layers and get the same spans; the loop calls the
// layer's listener with each event on the run's goroutine. Without the
// layer they assemble the parts: [Instrumentation.StartRun] for the run
// span and the ctx to run under, [Instrumentation.WrapStreamFn] for the
// model requests and [Instrumentation.WrapTools] for the tool calls; there
// the tool spans are the wrappers' own: they cover Execute only, and a
// call that never executes (an unknown tool, invalid arguments, a blocked
// call) has none.
//
// # Spans
//
// The spans and metrics follow the GenAI semantic conventions of semconv
// 1.41.0 ([SchemaURL], the schema of the tracer and the meter), whose keys
// this package takes from go.opentelemetry.io/otel/semconv/v1.41.0 and
// its genaiconv package.
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
// Their attributes are the conventions'. Every span has
// gen_ai.operation.name (invoke_agent, chat, execute_tool).
//
// The run span starts with gen_ai.provider.name and gen_ai.request.model
// (the Agent's model as the run starts, or the model given to
// [Instrumentation.StartRun]), where samplers see them, and
// gen_ai.agent.name, gen_ai.agent.id, gen_ai.agent.version and
// gen_ai.agent.description from the [Config]. Its first request adds
// gen_ai.conversation.id (the request's SessionID); it ends with
// gen_ai.response.finish_reasons of its last response and the usage summed
// over its responses.
//
// A chat span has gen_ai.provider.name, gen_ai.request.model,
// gen_ai.request.stream (true: every request streams),
// gen_ai.request.max_tokens, gen_ai.request.temperature,
// gen_ai.conversation.id, server.address and server.port (from the model's
// BaseURL) from its start, and gen_ai.response.model, gen_ai.response.id,
// gen_ai.response.finish_reasons (the stop reason: stop, length,
// tool_call, error, aborted), gen_ai.response.time_to_first_chunk and the
// usage from its end: gen_ai.usage.input_tokens (pi's input plus its cache
// reads and writes, as the conventions count it),
// gen_ai.usage.output_tokens, gen_ai.usage.cache_read.input_tokens,
// gen_ai.usage.cache_creation.input_tokens and
// gen_ai.usage.reasoning.output_tokens. A chunk is an event of the stream
// that opens a content block or adds to one (a text, thinking or tool call
// start or delta); the time to the first is measured from the call of the
// stream function.
//
// A tool span has gen_ai.tool.name, gen_ai.tool.call.id, gen_ai.tool.type
// (function) and gen_ai.tool.description (the tool's Description, when it
// has one).
//
// gen_ai.provider.name is the well-known value of the model's Provider
// where the conventions have one: amazon-bedrock is aws.bedrock, anthropic
// anthropic, azure azure.ai.openai, deepseek deepseek, google gcp.gemini,
// google-vertex gcp.vertex_ai, groq groq, mistral mistral_ai, openai and
// openai-codex openai, xai x_ai. Other providers are recorded as pi names
// them (openrouter, say); a model without a Provider gives its API, else
// "unknown".
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
// Six histograms, with the conventions' bucket boundaries:
//
//   - gen_ai.client.operation.duration (seconds, per model request, 0.01 to
//     81.92 s), with error.type when the request failed;
//   - gen_ai.client.token.usage (tokens per request and gen_ai.token.type
//     input or output, when the response reports usage);
//   - gen_ai.client.operation.time_to_first_chunk (seconds, per request
//     that streamed a chunk) and
//     gen_ai.client.operation.time_per_output_chunk (seconds from each
//     chunk to the next), both recorded as the request ends;
//   - gen_ai.execute_tool.duration (seconds, per tool call, the span's
//     duration), with gen_ai.tool.name, gen_ai.tool.type,
//     gen_ai.agent.name and error.type;
//   - gen_ai.invoke_agent.duration (seconds, per run, the span's duration,
//     0.1 to 409.6 s), with gen_ai.agent.name and error.type only.
//
// The client histograms have the low-cardinality attributes of the chat
// span: operation, provider, request and response model, server.
//
// # Content
//
// Message content is not recorded unless [Config].CaptureContent is set,
// as the conventions recommend. Then chat spans carry
// gen_ai.system_instructions, gen_ai.input.messages and
// gen_ai.output.messages; the run span the system instructions of its
// first request, its input (the messages it added before its first
// response: its prompts) and its output (its last response); tool spans
// gen_ai.tool.call.arguments and, for calls that succeeded,
// gen_ai.tool.call.result (a failed call's text is its error status). The
// values are structured, as the conventions ask: messages are
// [attribute.Map] values of role and parts in an [attribute.Slice], parts
// maps of type and fields (text, reasoning, tool_call,
// tool_call_response; an image is a part of type "image" with its MIME
// type, never its data), and arguments and results that are JSON objects
// or arrays are decoded into maps and slices. Each text, argument object
// and result is capped at [Config].MaxContentBytes.
//
// [Config].ToolDefinitions records gen_ai.tool.definitions on chat spans
// and the run span (of its first request): the type, name and description
// of each tool the model is offered.
//
// # Where it departs from the conventions
//
//   - gen_ai.invoke_agent.duration and gen_ai.execute_tool.duration are
//     not in semconv 1.41.0: their names, buckets and attributes are those
//     of the GenAI conventions' metrics document, and their names are
//     written here rather than taken from genaiconv.
//   - gen_ai.invoke_agent.duration has no gen_ai.request.model: the
//     conventions want it only for agents fixed to one model, and an
//     Agent's model changes (SetModel, a PrepareRequest hook).
//   - A chunk is an event of the stream function, not a provider's wire
//     chunk, which the stream function does not expose: an event that only
//     closes a block, or a stream's start (the response's headers), is not
//     one.
//   - error.type takes the values above rather than _OTHER, as the
//     conventions allow for documented values.
//   - gen_ai.tool.definitions leaves out the tools' parameter schemas,
//     which the conventions do not require and advise against by default.
//   - The run span's gen_ai.input.messages are its prompts, not the whole
//     history: each chat span holds what its request sent.
//   - Providers the conventions have no value for keep pi's name; the
//     conventions' moonshot_ai is newer than 1.41.0 and not used.
//
// # Held tool calls
//
// [Instrumentation.HoldEvents] is a hold.Options.OnEvent (package hold)
// that records how long a person took to decide each held call: a root
// span "hold {tool}" from when the call was held to its decision, and the
// histogram [MetricHoldDuration]. It also marks the execute_tool span of
// the call the Gate held (the call did not run: its result is the
// placeholder) with [AttrHoldHeld] and an event "held", without an error
// status, so an approval request does not show as a failed tool. The
// approved call's execution is then an execute_tool span under the
// invoke_agent span of the run that resumes it, in that run's trace: the
// Gate runs it before the loop, inside the Instrumentation's run wrapper,
// which starts the run's span for it (put the Instrumentation before the
// Gate in Layers, as [Instrumentation.NewAgent] does).
//
// # What it uses of the Agent
//
// The layer sets no hook: the Agent's hooks, and those of its other
// layers, run as given. It wraps the stream function, each tool's
// Execute and each run (see Held tool calls), and subscribes one
// listener, before those of the layers after it and of the program. A
// call that ends in error without having run keeps its span open until
// turn_end, when it is known whether the Gate held it. That listener
// reads agent_start (where it takes
// the Agent's [agentcore.Agent.State] for the run's model) and
// agent_end (the run span), message_end of assistant messages with tool
// calls and turn_end (to find a call's span from its Execute), and
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
// wrapped values themselves and whose layer installs nothing: nothing
// is added (BenchmarkRun counts the same allocations as without it). With
// providers that record nothing for a run and no histogram enabled (the
// global providers before any is installed, a sampler that drops the run),
// the run costs one span start, and its requests and tool calls run
// unwrapped; a sampled-out run still hands its span context to the stream
// function, for propagation. Recording with the SDK costs about one
// allocation per attribute (BenchmarkRun measures it).
//
// Captured content is the whole request of every model call, so a long
// conversation records its history again at each request: cap it with
// MaxContentBytes, or with the SDK's span limits.
package agentotel
