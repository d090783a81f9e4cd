// Package eventlog prints an agent's events as the readable log the
// examples show: a line for each turn, message and tool call, and the
// streamed text with its deltas joined by "|", so that the chunking shows.
package eventlog

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/pi-go/agentcore"
)

// Log prints events to W. The options add lines some examples want.
type Log struct {
	W io.Writer
	// Usage adds the input and output tokens to the line that ends an
	// assistant message.
	Usage bool
	// ToolArguments prints a tool call's arguments each time they grow.
	ToolArguments bool
	// ToolRuns prints the start and the end of each tool execution.
	ToolRuns bool
	// UserLabel, when set, names the kind of a user message on its line
	// ("steer", say); empty means "user".
	UserLabel func(*agentcore.UserMessage) string
}

// Event prints the line of ev, if it has one. It is an agentcore.Listener.
func (l Log) Event(_ context.Context, ev agentcore.AgentEvent) {
	w := l.W
	switch ev := ev.(type) {
	case *agentcore.AgentStartEvent:
		fmt.Fprintln(w, "agent start")
	case *agentcore.TurnStartEvent:
		fmt.Fprintln(w, "── turn")
	case *agentcore.MessageEndEvent:
		switch m := ev.Message.(type) {
		case *agentcore.UserMessage:
			label := "user"
			if l.UserLabel != nil && l.UserLabel(m) != "" {
				label = l.UserLabel(m)
			}
			fmt.Fprintf(w, "%s: %s\n", label, m.Text())
		case *agentcore.AssistantMessage:
			if l.Usage {
				fmt.Fprintf(w, "   [%s] %d tokens in, %d out\n", m.StopReason, m.Usage.Input, m.Usage.Output)
			} else {
				fmt.Fprintf(w, "   [%s]\n", m.StopReason)
			}
		case *agentcore.ToolResultMessage:
			fmt.Fprintf(w, "tool result %s: %s\n", m.ToolCallID, agentcore.Blocks(m.Content...).Text())
		case *agentcore.SystemMessage:
			fmt.Fprintf(w, "system: %q (+%d tools)\n", agentcore.SystemPromptText(m), len(m.ToolsAdded))
		}
	case *agentcore.MessageUpdateEvent:
		switch e := ev.AssistantEvent.(type) {
		case *agentcore.TextStartEvent:
			fmt.Fprint(w, "assistant: ")
		case *agentcore.TextDeltaEvent:
			fmt.Fprintf(w, "%s|", e.Delta)
		case *agentcore.TextEndEvent:
			fmt.Fprintln(w)
		case *agentcore.ToolCallDeltaEvent:
			if l.ToolArguments {
				call := ev.Message.Content[e.ContentIndex].(agentcore.ToolCall)
				fmt.Fprintf(w, "   streaming %s arguments: %s\n", call.Name, call.Arguments)
			}
		case *agentcore.ToolCallEndEvent:
			fmt.Fprintf(w, "   calls %s %s\n", e.ToolCall.Name, compact(e.ToolCall.Arguments))
		}
	case *agentcore.ToolExecutionStartEvent:
		if l.ToolRuns {
			fmt.Fprintf(w, "tool start %s %s\n", ev.ToolCallID, ev.ToolName)
		}
	case *agentcore.ToolExecutionEndEvent:
		if l.ToolRuns {
			fmt.Fprintf(w, "tool end   %s error=%v\n", ev.ToolCallID, ev.IsError)
		}
	case *agentcore.AgentEndEvent:
		fmt.Fprintf(w, "agent end: %d new messages\n", len(ev.Messages))
	}
}

// compact returns the JSON text raw re-encoded by Go (no white space, keys
// sorted), or raw itself when it is not JSON.
func compact(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
