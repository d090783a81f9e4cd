// Package acp serves an agentcore Agent to editors over the Agent Client
// Protocol (ACP), version 1: JSON-RPC 2.0 on the agent's standard input
// and output, spoken by Zed, JetBrains IDEs, Neovim (CodeCompanion,
// avante.nvim) and Emacs (agent-shell). The editor launches the program;
// the program serves:
//
//	srv := acp.NewServer(acp.Options{
//		Agent: func(ctx context.Context, env *acp.Env) (agentcore.Options, error) {
//			tools := codingtools.CodingTools(env.Cwd, &codingtools.Options{FS: env.FS, Shell: env.Shell})
//			return agentcore.Options{Model: model, StreamFn: providers.StreamFn(providers.Options{}), Tools: tools}, nil
//		},
//		Permission: hold.Always(hold.Request{}, "bash", "edit", "write"),
//	})
//	err := srv.ServeStdio(ctx)
//
// examples/acp is such a program. [Server.Serve] serves any
// io.ReadWriter (a pipe in tests); a program never writes to its standard
// output while it serves on it.
//
// # Sessions
//
// Every session/new builds an Agent with [Options].Agent, told the
// session's working directory and the operations its tools use ([Env]).
// A session is a pi session file ([session.Session]) under
// [Options].AgentDir, pi's ~/.pi/agent by default: the session's ID is the
// file's, every message is recorded as it ends, and session/list and
// session/load find the files of a working directory (pi itself lists and
// resumes them too). session/load replays the conversation to the client
// as updates (the user's messages, the agent's text and thoughts, its tool
// calls and their results) and goes on from the file's leaf.
// [Options].Ephemeral keeps no files, and then offers neither method.
// session/close cancels a session's prompt, waits for it and closes the
// session (its file, its MCP servers); every session of a connection is
// closed when it ends.
//
// [Options].AuthMethods are offered in initialize, and authenticate runs
// the one the client picks with [Options].Authenticate; [Options].Agent
// asks for it by returning an [*Error] of code [CodeAuthRequired], which
// the client gets as it is.
//
// # Prompts and updates
//
// session/prompt takes text, images, resource links (a line naming the
// link: the model reads the file with its tools), embedded resources (a
// text resource as its text in a <context ref="uri"> element, an image as
// the image) and a leading "/command" of [Options].Commands. The run
// streams to the client as session/update notifications, from the Agent's
// listener, in the run's order: agent_message_chunk and
// agent_thought_chunk per delta, tool_call when a call starts (its title,
// kind and locations from [Options].Describe, by default from
// codingtools' tools), tool_call_update when it runs (in_progress; a
// call waiting for permission stays pending), as it reports and when it ends
// (completed or failed, its content, the diffs of an edit, each hunk of
// the edit's patch, or of a write), usage_update after each response when
// the model's context window is known (the tokens of the last request and
// the session's cost in USD), available_commands_update after session/new
// and session/load. Events the server does not know are ignored. The
// prompt's stop reason is end_turn, max_tokens (the response was cut),
// max_turn_requests ([Options].MaxTurns model requests), refusal (the
// provider's stop reason said so) or cancelled; a failed response is a
// JSON-RPC internal error naming the failure, the session usable after.
// An agentcore Agent keeps no plan: a program whose agent does (a todo
// tool, say) shows it with [Env].Plan, a plan update. [Options].Modes give
// session/set_mode its modes, read by the program through [Env].Mode.
//
// session/cancel aborts the running prompt (or one the client sent before
// it that has yet to begin, which answers cancelled at once): the run's
// ctx ends, the running tools get it, every tool call the client was told
// about gets a final update (failed when it did not finish), and the
// prompt answers cancelled.
//
// # Permissions
//
// [Options].Permission picks the tool calls that need the user's word; the
// server installs a [hold.Gate] with it. A held call becomes a
// session/request_permission with ACP's four options (allow once, allow
// always, reject once, reject always); the call runs or is refused by the
// answer, and the run goes on. "Always" applies to the tool's later calls
// in the session, and is kept in the session file as a custom entry of
// type "acp.permissions" (pi keeps and ignores it), so a loaded session
// remembers it. A cancelled answer cancels the prompt. A question left
// unanswered (the prompt cancelled, the client gone) leaves the call not
// run, its result in the transcript saying so.
//
// # The editor's files and terminal
//
// When the client offers fs.readTextFile and fs.writeTextFile, [Env].FS
// reads and writes through it for codingtools' read, edit and write: they
// see the editor's unsaved buffers and the editor sees the edits. The
// protocol has no stat, listing or directories: those, images, and the
// files grep and find walk (a request a file would be slow) are the
// local disk's. When it offers
// terminal, [Env].Shell runs bash's commands in the editor's terminal
// (terminal/create with bash -c), shown in the tool call, killed on
// cancel or timeout and released after. Without them, FS is the local
// disk and Shell nil (codingtools' local bash).
//
// # MCP servers
//
// The MCP servers an editor passes in session/new and session/load are
// connected by [Options].ConnectMCP, whose tools [Env].Tools gives the
// program; they are closed with the session. The server itself speaks no
// MCP: agentmcp.ACPConnector of the module github.com/pi-go/agentcore/mcp
// connects them with that package, keeping this package's module free of
// the MCP SDK. Without ConnectMCP, servers passed are ignored.
//
// # Bad input
//
// A line that is not JSON gets a parse error (-32700), a message that is
// not JSON-RPC 2.0 an invalid request (-32600), an unknown method -32601,
// bad params -32602, a session the connection does not have -32002 (not
// found), a method before initialize and a second prompt while one runs
// -32600. Notifications are never answered; a cancel for a session not
// running does nothing. A malformed answer to one of the server's
// requests fails that request (a permission so answered is refused). A
// panic in a handler is an internal error. A line over
// [Options].MaxMessageBytes is a parse error, skipped to its end; with
// 1024 sessions open, session/new and session/load are refused; with 256
// requests in progress, or [Options].MaxInFlightBytes of them, the next is
// refused at once (the reader never waits, so a cancel always gets
// through). When the client goes away,
// [Server.Serve] aborts the running prompts, closes the session files
// (every message ended is in them, whole lines) and returns; another
// connection loads them.
//
// # Why its own JSON-RPC
//
// The package speaks JSON-RPC 2.0 with the standard library rather than a
// community SDK (github.com/coder/acp-go-sdk): the root module's
// dependencies stay the three it has; the protocol surface a server needs
// is some twenty messages, checked here against the official TypeScript
// SDK's schema in a test (TestOfficialClient); and the server needs what a
// general SDK decides for it: updates written from the Agent's awaited
// listener in the run's order, every goroutine joined before Serve
// returns, each request's ctx the connection's, and the protocol's error
// codes for each bad input.
package acp
