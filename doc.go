// Package agentcore is an embeddable agent runtime: the loop that calls a
// model, executes the tools it asks for, and decides whether to call it
// again, plus a stateful [Agent] with a transcript, steering and follow-up
// queues, awaited subscribers and abort. It is a Go port of pi-agent-core
// 1.5, the runtime under the pi coding agent, and keeps its behavior and
// its JSON.
package agentcore
