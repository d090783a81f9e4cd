package agui

import "encoding/json"

// The AG-UI events the handler writes, one struct per event type. Each
// carries its type in Type; optional fields are left out when empty, as the
// protocol wants absent fields absent rather than null.

type runStarted struct {
	Type        string `json:"type"`
	ThreadID    string `json:"threadId"`
	RunID       string `json:"runId"`
	ParentRunID string `json:"parentRunId,omitempty"`
}

type runFinished struct {
	Type     string       `json:"type"`
	ThreadID string       `json:"threadId"`
	RunID    string       `json:"runId"`
	Outcome  *runOutcome  `json:"outcome,omitempty"`
	Usage    []tokenUsage `json:"usage,omitempty"`
}

type runOutcome struct {
	Type               string      `json:"type"`
	PendingToolCallIDs []string    `json:"pendingToolCallIds,omitempty"`
	Interrupts         []interrupt `json:"interrupts,omitempty"`
}

type tokenUsage struct {
	Provider              string `json:"provider,omitempty"`
	Model                 string `json:"model,omitempty"`
	InputTokens           int64  `json:"inputTokens"`
	OutputTokens          int64  `json:"outputTokens"`
	TotalTokens           int64  `json:"totalTokens"`
	ReasoningTokens       *int64 `json:"reasoningTokens,omitempty"`
	CachedInputTokens     int64  `json:"cachedInputTokens"`
	CacheWriteInputTokens int64  `json:"cacheWriteInputTokens"`
}

type runError struct {
	Type    string       `json:"type"`
	Message string       `json:"message"`
	Code    string       `json:"code,omitempty"`
	Usage   []tokenUsage `json:"usage,omitempty"`
}

type step struct {
	Type     string `json:"type"`
	StepName string `json:"stepName"`
}

// messageEvent is every event that names a message and nothing else:
// TEXT_MESSAGE_END, REASONING_START, REASONING_MESSAGE_END, REASONING_END.
type messageEvent struct {
	Type      string `json:"type"`
	MessageID string `json:"messageId"`
}

// messageStart is TEXT_MESSAGE_START and REASONING_MESSAGE_START.
type messageStart struct {
	Type      string `json:"type"`
	MessageID string `json:"messageId"`
	Role      string `json:"role"`
}

// messageContent is TEXT_MESSAGE_CONTENT and REASONING_MESSAGE_CONTENT.
type messageContent struct {
	Type      string `json:"type"`
	MessageID string `json:"messageId"`
	Delta     string `json:"delta"`
}

type encryptedValue struct {
	Type           string `json:"type"`
	Subtype        string `json:"subtype"`
	EntityID       string `json:"entityId"`
	EncryptedValue string `json:"encryptedValue"`
}

type toolCallStart struct {
	Type            string `json:"type"`
	ToolCallID      string `json:"toolCallId"`
	ToolCallName    string `json:"toolCallName"`
	ParentMessageID string `json:"parentMessageId,omitempty"`
}

type toolCallArgs struct {
	Type       string `json:"type"`
	ToolCallID string `json:"toolCallId"`
	Delta      string `json:"delta"`
}

type toolCallEnd struct {
	Type       string `json:"type"`
	ToolCallID string `json:"toolCallId"`
}

type toolCallResult struct {
	Type       string          `json:"type"`
	MessageID  string          `json:"messageId"`
	ToolCallID string          `json:"toolCallId"`
	Content    json.RawMessage `json:"content"`
	Role       string          `json:"role"`
}

type messagesSnapshot struct {
	Type     string            `json:"type"`
	Messages []json.RawMessage `json:"messages"`
}

type stateSnapshot struct {
	Type     string          `json:"type"`
	Snapshot json.RawMessage `json:"snapshot"`
}

type stateDelta struct {
	Type  string          `json:"type"`
	Delta json.RawMessage `json:"delta"`
}
