package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/pi-go/agentcore"
)

// rule is a hook rule of a scenario; fields apply per hook (FORMAT.md).
type rule struct {
	Actions   *Actions `json:"actions"`
	Throw     string   `json:"throw"`
	Block     *bool    `json:"block"`
	Reason    *string  `json:"reason"`
	Terminate *bool    `json:"terminate"`

	Content json.RawMessage `json:"content"`
	Details json.RawMessage `json:"details"`
	IsError *bool           `json:"isError"`

	Action        string            `json:"action"`
	Messages      []json.RawMessage `json:"messages"`
	Model         *ModelSpec        `json:"model"`
	ThinkingLevel string            `json:"thinkingLevel"`
	KeepLast      int               `json:"keepLast"`
	AppendUser    string            `json:"appendUser"`
	CustomToUser  bool              `json:"customToUser"`
	Keys          []string          `json:"keys"`
}

// table is a hook table keyed by call number, tool call ID or tool name.
type table map[string]*rule

// pick returns the rule for key, else the "*" rule.
func (t table) pick(key string) *rule {
	if r := t[key]; r != nil {
		return r
	}
	return t["*"]
}

func (p *player) table(name string) (table, bool, error) {
	raw, ok := p.s.Hooks[name]
	if !ok {
		return nil, false, nil
	}
	var t table
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, false, err
	}
	return t, true, nil
}

func (p *player) single(name string) (*rule, bool, error) {
	raw, ok := p.s.Hooks[name]
	if !ok {
		return nil, false, nil
	}
	var r rule
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, false, err
	}
	return &r, true, nil
}

// request is the model, thinking level and context (the last keepLast
// messages of c) a rule replaces.
func (r *rule) request(c agentcore.AgentContext) *agentcore.RequestUpdate {
	upd := &agentcore.RequestUpdate{ThinkingLevel: agentcore.ThinkingLevel(r.ThinkingLevel)}
	if r.Model != nil {
		m := r.Model.model()
		upd.Model = &m
	}
	if r.KeepLast > 0 {
		upd.Context = &agentcore.AgentContext{Messages: keepLast(c.Messages, r.KeepLast), Tools: c.Tools}
	}
	return upd
}

// keepLast returns the last k messages of msgs.
func keepLast(msgs []agentcore.Message, k int) []agentcore.Message {
	return msgs[max(0, len(msgs)-k):]
}

func (p *player) installHooks(h *agentcore.Hooks) error {
	if t, ok, err := p.table("beforeToolCall"); err != nil {
		return err
	} else if ok {
		h.BeforeToolCall = func(_ context.Context, c agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
			if p.rec.enabled {
				p.rec.out(map[string]any{"type": "hook", "hook": "beforeToolCall", "toolCallId": c.ToolCall.ID, "args": c.Args, "transcript": len(p.agent.Messages())})
			}
			r := t[c.ToolCall.ID]
			if r == nil {
				r = t[c.ToolCall.Name]
			}
			if r == nil {
				return nil, nil
			}
			p.doActions(r.Actions)
			if r.Throw != "" {
				return nil, errors.New(r.Throw)
			}
			if r.Block == nil && r.Reason == nil && r.Terminate == nil {
				return nil, nil
			}
			res := &agentcore.BeforeToolCallResult{}
			if r.Block != nil {
				res.Block = *r.Block
			}
			if r.Reason != nil {
				res.Reason = *r.Reason
			}
			if r.Terminate != nil {
				res.Terminate = *r.Terminate
			}
			return res, nil
		}
	}
	if t, ok, err := p.table("afterToolCall"); err != nil {
		return err
	} else if ok {
		h.AfterToolCall = func(_ context.Context, c agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
			if p.rec.enabled {
				p.rec.out(map[string]any{"type": "hook", "hook": "afterToolCall", "toolCallId": c.ToolCall.ID, "isError": c.IsError, "result": c.Result})
			}
			r := t[c.ToolCall.ID]
			if r == nil {
				r = t[c.ToolCall.Name]
			}
			if r == nil {
				return nil, nil
			}
			if r.Throw != "" {
				return nil, errors.New(r.Throw)
			}
			res := &agentcore.AfterToolCallResult{IsError: r.IsError, Terminate: r.Terminate}
			if len(r.Content) > 0 && string(r.Content) != "null" {
				blocks, err := decodeBlocks(r.Content)
				if err != nil {
					return nil, err
				}
				res.Content = blocks
			}
			if len(r.Details) > 0 && string(r.Details) != "null" {
				res.Details = r.Details
			}
			return res, nil
		}
	}
	if t, ok, err := p.table("finishTurn"); err != nil {
		return err
	} else if ok {
		h.FinishTurn = func(_ context.Context, turn agentcore.TurnContext) (agentcore.TurnDecision, error) {
			n := p.callNumber("finishTurn", assistants(turn.Context.Messages)-1)
			if p.rec.enabled {
				p.rec.out(map[string]any{"type": "hook", "hook": "finishTurn", "call": n, "stopReason": turn.Message.StopReason, "toolResults": len(turn.ToolResults), "newMessages": len(turn.NewMessages)})
			}
			r := t.pick(strconv.Itoa(n))
			if r == nil {
				return agentcore.TurnDefault, nil
			}
			if r.Throw != "" {
				return agentcore.TurnDefault, errors.New(r.Throw)
			}
			switch r.Action {
			case "continue":
				return agentcore.TurnContinue, nil
			case "end":
				return agentcore.TurnEnd, nil
			}
			return agentcore.TurnDefault, nil
		}
	}
	if t, ok, err := p.table("prepareNextTurn"); err != nil {
		return err
	} else if ok {
		h.PrepareNextTurn = func(_ context.Context, turn agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
			n := p.callNumber("prepareNextTurn", assistants(turn.Context.Messages)-1)
			if p.rec.enabled {
				p.rec.out(map[string]any{"type": "hook", "hook": "prepareNextTurn", "call": n, "context": len(turn.Context.Messages)})
			}
			r := t.pick(strconv.Itoa(n))
			if r == nil {
				return nil, nil
			}
			p.doActions(r.Actions)
			req := r.request(turn.Context)
			upd := &agentcore.TurnUpdate{Context: req.Context, Model: req.Model, ThinkingLevel: req.ThinkingLevel}
			if r.Messages != nil {
				msgs, err := decodeMessages(r.Messages)
				if err != nil {
					return nil, err
				}
				upd.Messages = msgs
			}
			return upd, nil
		}
	}
	if t, ok, err := p.table("prepareRequest"); err != nil {
		return err
	} else if ok {
		h.PrepareRequest = func(_ context.Context, req agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
			n := p.callNumber("prepareRequest", assistants(req.Context.Messages))
			if p.rec.enabled {
				p.rec.out(map[string]any{"type": "hook", "hook": "prepareRequest", "call": n, "model": req.Model.ID, "thinkingLevel": req.ThinkingLevel, "context": len(req.Context.Messages)})
			}
			r := t.pick(strconv.Itoa(n))
			if r == nil {
				return nil, nil
			}
			if r.Throw != "" {
				return nil, errors.New(r.Throw)
			}
			return r.request(req.Context), nil
		}
	}
	if r, ok, err := p.single("transformContext"); err != nil {
		return err
	} else if ok {
		h.TransformContext = func(_ context.Context, msgs []agentcore.Message) ([]agentcore.Message, error) {
			n := p.callNumber("transformContext", assistants(msgs))
			if p.rec.enabled {
				p.rec.out(map[string]any{"type": "hook", "hook": "transformContext", "call": n, "messages": len(msgs)})
			}
			if r.Throw != "" {
				return nil, errors.New(r.Throw)
			}
			next := msgs
			if r.KeepLast > 0 {
				var head []agentcore.Message
				if len(next) > 0 && next[0].Role() == "system" {
					head = next[:1]
				}
				rest := next[len(head):]
				next = append(append([]agentcore.Message{}, head...), keepLast(rest, r.KeepLast)...)
			}
			if r.AppendUser != "" {
				next = append(append([]agentcore.Message{}, next...), userText(r.AppendUser))
			}
			return next, nil
		}
	}
	if r, ok, err := p.single("convertToLlm"); err != nil {
		return err
	} else if ok {
		h.ConvertToLLM = func(_ context.Context, msgs []agentcore.Message) ([]agentcore.Message, error) {
			if r.Throw != "" {
				return nil, errors.New(r.Throw)
			}
			out := make([]agentcore.Message, 0, len(msgs))
			for _, m := range msgs {
				if agentcore.IsStandard(m) {
					out = append(out, m)
					continue
				}
				if r.CustomToUser {
					out = append(out, customToUser(m))
				}
			}
			return out, nil
		}
	}
	if r, ok, err := p.single("getApiKey"); err != nil {
		return err
	} else if ok {
		h.GetAPIKey = func(_ context.Context, provider string) (string, error) {
			n := p.count("getApiKey")
			if p.rec.enabled {
				p.rec.out(map[string]any{"type": "hook", "hook": "getApiKey", "call": n, "provider": provider})
			}
			if len(r.Keys) == 0 {
				return "", nil
			}
			return r.Keys[min(n, len(r.Keys))-1], nil
		}
	}
	return nil
}

// customToUser turns an app-defined message into a user message holding its
// "text" field.
func customToUser(m agentcore.Message) agentcore.Message {
	text := ""
	var ts int64
	if c, ok := m.(*agentcore.CustomMessage); ok {
		var fields struct {
			Text      any   `json:"text"`
			Timestamp int64 `json:"timestamp"`
		}
		_ = json.Unmarshal(c.Raw, &fields)
		switch v := fields.Text.(type) {
		case string:
			text = v
		case nil:
		default:
			b, _ := json.Marshal(v)
			text = string(b)
		}
		ts = fields.Timestamp
	}
	return &agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: text}), Timestamp: ts}
}
