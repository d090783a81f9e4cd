// Package agentmcp connects agentcore to the Model Context Protocol, on
// the official Go SDK (github.com/modelcontextprotocol/go-sdk/mcp): the
// tools of MCP servers become agentcore tools, and an Agent becomes a tool
// that MCP clients call.
//
// The package is named agentmcp, not mcp, so that it does not shadow the
// SDK's package mcp, which most of its users import beside it (as
// agentotel does not shadow OpenTelemetry's otel).
//
// # Tools from MCP servers
//
// [Connect] connects to a list of [Server]s and returns a [Toolset]: a
// [Command] runs a server as a subprocess over stdio, [StreamableHTTP]
// reaches one over HTTP with the headers it needs for authentication, and
// [SDKTransport] takes any transport of the SDK (in-memory ones in tests):
//
//	ts, err := agentmcp.Connect(ctx, []agentmcp.Server{
//		{Name: "files", Transport: agentmcp.Command{Path: "mcp-files", Args: []string{"/srv"}}},
//		{Name: "issues", Prefix: "issues_", Transport: agentmcp.StreamableHTTP{
//			URL: "https://issues.example.com/mcp", Header: http.Header{"Authorization": {"Bearer " + token}},
//		}},
//	}, nil)
//	defer ts.Close()
//	agent := agentcore.New(agentcore.Options{Model: model, StreamFn: provider, Tools: ts.Tools()})
//
// Each MCP tool becomes an [agentcore.Tool]: its name behind the server's
// optional Prefix, its title as Label, its description, its input schema
// as Parameters (so the loop validates and coerces the model's arguments
// as it does every tool's) and its output schema as OutputSchema. Connect
// refuses a schema the loop could not compile, naming the server and the
// tool, and two tools with one name ([ErrNameCollision]).
//
// A call is a tools/call request on the call's ctx: an abort cancels the
// request (the SDK sends notifications/cancelled), and [Options].CallTimeout
// bounds it ([ErrTimeout]). The server's progress notifications become the
// call's onUpdate results ([Progress] in Details); the SDK delivers them on
// a goroutine of their own, so one that arrives after the result is
// dropped, as the loop drops late updates. The result's text and images
// are the tool result's content; audio and binary resources go to its
// [Details] with a text block saying so; embedded text resources are text,
// resource links a line of text; structured content is StructuredContent
// (and the content when the server sent no other); isError makes an error
// result the model sees. A result over [Options].MaxResultBytes fails the
// call with [ErrResultTooLarge]; what a call reads is bounded too (the
// SDK's 16 MiB message limit over stdio, twice MaxResultBytes over
// Streamable HTTP), so that a hostile server cannot fill memory. A read
// tool or an idempotent one, as its annotations say, gets
// [agentcore.ReplaySafe].
//
// A server's listing is bounded too: [Options].MaxTools (10,000 tools by
// default, and as many pages) and MaxListBytes (16 MiB of declarations)
// stop one that pages for ever or lists too much, with an error wrapping
// [ErrListTooLarge] that names it, at Connect and at every refresh. One
// page is decoded whole by the SDK before the bounds apply: its size is
// bounded by the transport's (above). Measured (BenchmarkListOnePage): a
// page of 100,000 tools, 12 MB of JSON, leaves 62 MB on the heap with the
// Toolset connected, the SDK's read buffers included; decoding it peaks
// at about 430 MB, inside the SDK (every tool's schema decoded as maps
// and decoded again to check its header annotations).
//
// # Keeping up with the servers
//
// A server that announces notifications/tools/list_changed is listed
// again on the Toolset's own goroutine; [Toolset.Tools] then gives the
// new set and [Options].OnToolsChanged is told. An Agent picks the change
// up through the hooks that exist: [Toolset.PrepareNextTurn] as its
// PrepareNextTurn hook brings a run's tools up to date between turns (the
// loop declares the difference to the model), and [Toolset.Attach] sets
// the Agent's tools for its next runs:
//
//	agent := agentcore.New(agentcore.Options{
//		Model: model, StreamFn: provider, Tools: ts.Tools(),
//		Hooks: agentcore.Hooks{PrepareNextTurn: ts.PrepareNextTurn},
//	})
//	defer ts.Attach(agent)()
//
// A server that goes away during a call (its process exited, its
// connection broke) fails that call with [ErrConnectionLost]; the next
// call connects again, starting a new process for a [Command], and
// refreshes the server's tools.
//
// # The MCP servers of an editor
//
// An editor that hosts an agent over the Agent Client Protocol (package
// acp) passes it MCP servers in session/new. [ACPConnector] is
// acp.Options' ConnectMCP: it connects them as a Toolset, whose tools the
// session's Agent gets, and closes it with the session.
//
// # An Agent as an MCP server
//
// [NewAgentServer] and [AddAgentTool] serve an Agent as a tool of an SDK
// server, one Agent for every call or one per MCP session
// ([AgentTool].NewAgent). A call's prompt runs on the Agent; the text of
// its last assistant message is the result, its text deltas are progress
// notifications while it streams, and the client's cancellation aborts
// the run. Serve it as the SDK serves any server:
//
//	server, err := agentmcp.NewAgentServer(&mcp.Implementation{Name: "coder"}, agentmcp.AgentTool{Agent: agent})
//	err = server.Run(ctx, &mcp.StdioTransport{})                                   // over stdio
//	http.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)) // over HTTP
//
// # Asking the client's person
//
// An Agent whose layers hold tool calls for a person's decision (a
// [hold.Gate]) names its Gate in [AgentTool].Gate ([AgentTool].GateOf
// with NewAgent). A held call then becomes a form elicitation to the
// client, when the client declares that capability: the person reads the
// request (title, reason, what it touches, the arguments) and accepts
// (the call runs) or declines (it is denied), or unticks "approve" and
// gives a reason the model reads. The run then continues, and the call
// answers with its final text. A client without elicitation has held
// calls denied with [ReasonNoElicitation], and the call still completes:
//
//	gate := hold.New(hold.Options{Policy: hold.Always(hold.Request{Title: "Deploy?"}, "deploy")})
//	agent := agentcore.New(agentcore.Options{..., Layers: []agentcore.Layer{gate}})
//	server, err := agentmcp.NewAgentServer(impl, agentmcp.AgentTool{Agent: agent, Gate: gate})
//
// On protocol 2026-07-28 the elicitations are input requests of the
// call's result, answered by the client's next call (SEP-2322; the SDK's
// client does it on its own); on older protocols they are requests the
// server sends while the call runs. [AddAgentTool] gives the details.
//
// # Failures
//
// The package never logs. Connect's errors name the server; a call's
// error, which the model sees as the tool's error result, reads
// `mcp server "files": tool "read": ...` and wraps the sentinel that
// tells what happened: [ErrTimeout], [ErrConnectionLost],
// [ErrResultTooLarge] or [ErrClosed].
package agentmcp
