// Package conformance plays the conformance scenarios of FORMAT.md on an
// agentcore Agent with the fake model and records the trace the reference
// runner records, so that the two can be compared line by line.
package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// Scenario is one conformance scenario (FORMAT.md).
type Scenario struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Agent       struct {
		SystemPrompt  string            `json:"systemPrompt"`
		Model         *ModelSpec        `json:"model"`
		ThinkingLevel string            `json:"thinkingLevel"`
		ToolExecution string            `json:"toolExecution"`
		SteeringMode  string            `json:"steeringMode"`
		FollowUpMode  string            `json:"followUpMode"`
		Tools         []string          `json:"tools"`
		Messages      []json.RawMessage `json:"messages"`
	} `json:"agent"`
	Tools           map[string]ToolDef                    `json:"tools"`
	Calls           map[string]map[string]json.RawMessage `json:"calls"`
	Hooks           map[string]json.RawMessage            `json:"hooks"`
	Model           []ResponseSpec                        `json:"model"`
	ListenerDelayMs map[string]int                        `json:"listenerDelayMs"`
	Steps           []Step                                `json:"steps"`

	mu         sync.RWMutex
	behaviors  map[behaviorKey]*Behavior
	scriptOnce sync.Once
	scripted   []agentcoretest.Response
	scriptErr  error
}

// script returns the fake model's responses, converted once per scenario
// (tool call arguments made canonical); OnStart is left for each play.
func (s *Scenario) script() ([]agentcoretest.Response, error) {
	s.scriptOnce.Do(func() {
		s.scripted = make([]agentcoretest.Response, len(s.Model))
		for i, spec := range s.Model {
			if s.scripted[i], s.scriptErr = spec.response(nil); s.scriptErr != nil {
				return
			}
		}
		// The raw blocks are not read again: let them go.
		for i := range s.Model {
			s.Model[i].Content = nil
		}
	})
	return s.scripted, s.scriptErr
}

// ModelSpec is a model in a scenario; absent fields take the defaults.
type ModelSpec struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	API           string `json:"api"`
	Provider      string `json:"provider"`
	Reasoning     bool   `json:"reasoning"`
	ContextWindow int    `json:"contextWindow"`
	MaxTokens     int    `json:"maxTokens"`
}

// Model returns the full model for s (nil: all defaults), as Play gives
// its Agent.
func (s *ModelSpec) Model() agentcore.Model { return s.model() }

// model returns the full model for s (nil: all defaults).
func (s *ModelSpec) model() agentcore.Model {
	m := agentcoretest.Model()
	m.Input = []string{"text"}
	if s == nil {
		return m
	}
	if s.ID != "" {
		m.ID, m.Name = s.ID, s.ID
	}
	if s.Name != "" {
		m.Name = s.Name
	}
	if s.API != "" {
		m.API = s.API
	}
	if s.Provider != "" {
		m.Provider = s.Provider
	}
	m.Reasoning, m.ContextWindow, m.MaxTokens = s.Reasoning, s.ContextWindow, s.MaxTokens
	return m
}

// ResponseSpec is one scripted model response.
type ResponseSpec struct {
	Content      []json.RawMessage `json:"content"`
	StopReason   string            `json:"stopReason"`
	ErrorMessage string            `json:"errorMessage"`
	Chunks       int               `json:"chunks"`
	Hang         bool              `json:"hang"`
	NoStart      bool              `json:"noStart"`
	Actions      *Actions          `json:"actions"`
}

// Actions are what a response, tool or hook does to the agent.
type Actions struct {
	Steer    textList `json:"steer"`
	FollowUp textList `json:"followUp"`
	Abort    bool     `json:"abort"`
}

// textList is a string or a list of strings.
type textList []string

func (t *textList) UnmarshalJSON(data []byte) error {
	var one string
	if json.Unmarshal(data, &one) == nil {
		*t = textList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil {
		return err
	}
	*t = many
	return nil
}

// Step is one step of a scenario; exactly one action field is set.
type Step struct {
	Prompt           json.RawMessage   `json:"prompt"`
	Wait             *bool             `json:"wait"`
	Continue         bool              `json:"continue"`
	Steer            json.RawMessage   `json:"steer"`
	FollowUp         json.RawMessage   `json:"followUp"`
	Abort            bool              `json:"abort"`
	WaitForIdle      bool              `json:"waitForIdle"`
	SleepMs          int               `json:"sleepMs"`
	Reset            bool              `json:"reset"`
	SetTools         []string          `json:"setTools"`
	SetModel         *ModelSpec        `json:"setModel"`
	SetThinkingLevel string            `json:"setThinkingLevel"`
	SetMessages      []json.RawMessage `json:"setMessages"`
	AppendMessage    json.RawMessage   `json:"appendMessage"`
	SetSteeringMode  string            `json:"setSteeringMode"`
	SetFollowUpMode  string            `json:"setFollowUpMode"`
	ClearQueues      string            `json:"clearQueues"`
	Peek             bool              `json:"peek"`
	State            bool              `json:"state"`
}

// Result is what playing a scenario gave.
type Result struct {
	Trace    []string
	Elapsed  time.Duration
	Events   int
	Requests int
}

// Parse reads a scenario.
func Parse(data []byte) (*Scenario, error) {
	var s Scenario
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	return &s, nil
}

// decodeMessage reads a scenario message; its timestamp is 0 when absent.
func decodeMessage(raw json.RawMessage) (agentcore.Message, error) {
	return agentcore.UnmarshalMessage(raw)
}

func decodeMessages(raws []json.RawMessage) ([]agentcore.Message, error) {
	out := make([]agentcore.Message, 0, len(raws))
	for _, r := range raws {
		m, err := decodeMessage(r)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// userMessage is user(TEXT), or the message itself.
func userMessage(raw json.RawMessage) (agentcore.Message, error) {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return userText(text), nil
	}
	return decodeMessage(raw)
}

func userText(text string) *agentcore.UserMessage {
	return &agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: text})}
}

// response converts a scripted response for the fake model.
func (r ResponseSpec) response(onStart func(context.Context)) (agentcoretest.Response, error) {
	out := agentcoretest.Response{
		StopReason: agentcore.StopReason(r.StopReason), ErrorMessage: r.ErrorMessage,
		Chunks: r.Chunks, Hang: r.Hang, NoStart: r.NoStart, OnStart: onStart,
	}
	if out.StopReason == "" {
		out.StopReason = agentcore.StopStop
	}
	for _, raw := range r.Content {
		var b struct {
			Type           string          `json:"type"`
			Text           string          `json:"text"`
			Thinking       string          `json:"thinking"`
			ID             string          `json:"id"`
			Name           string          `json:"name"`
			Arguments      json.RawMessage `json:"arguments"`
			ArgumentsError string          `json:"argumentsError"`
		}
		if err := json.Unmarshal(raw, &b); err != nil {
			return out, err
		}
		switch b.Type {
		case "text":
			out.Content = append(out.Content, agentcore.TextBlock{Text: b.Text})
		case "thinking":
			out.Content = append(out.Content, agentcore.ThinkingBlock{Thinking: b.Thinking})
		case "toolCall":
			// The reference's fake streams the arguments as canonical
			// JSON; agentcoretest streams them as scripted.
			args := json.RawMessage("{}")
			if len(b.Arguments) > 0 {
				if !json.Valid(b.Arguments) {
					return out, fmt.Errorf("tool call %s: invalid arguments %s", b.ID, b.Arguments)
				}
				args = json.RawMessage(agentcoretest.CanonicalJSON(b.Arguments))
			}
			out.Content = append(out.Content, agentcore.ToolCall{ID: b.ID, Name: b.Name, Arguments: args, ArgumentsError: b.ArgumentsError})
		default:
			return out, fmt.Errorf("unknown response block type %q", b.Type)
		}
	}
	return out, nil
}
