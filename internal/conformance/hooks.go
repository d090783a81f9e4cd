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

// installHooks sets on h the hooks the scenario defines, each by its
// installer.
func (p *player) installHooks(h *agentcore.Hooks) error {
	for _, install := range []func(*agentcore.Hooks) error{
		p.installBeforeToolCall, p.installAfterToolCall, p.installFinishTurn, p.installPrepareNextTurn,
		p.installPrepareRequest, p.installTransformContext, p.installConvertToLLM, p.installGetAPIKey,
	} {
		if err := install(h); err != nil {
			return err
		}
	}
	return nil
}

// forCall returns the rule for a tool call: by its ID, else its name.
func (t table) forCall(call agentcore.ToolCall) *rule {
	if r := t[call.ID]; r != nil {
		return r
	}
	return t[call.Name]
}

// record writes a hook's trace line, made by line, when recording.
func (p *player) record(line func() map[string]any) {
	if p.rec.enabled {
		p.rec.out(line())
	}
}

func (p *player) installBeforeToolCall(h *agentcore.Hooks) error {
	t, ok, err := p.table("beforeToolCall")
	if !ok {
		return err
	}
	h.BeforeToolCall = func(_ context.Context, c agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
		p.record(func() map[string]any {
			return map[string]any{"type": "hook", "hook": "beforeToolCall", "toolCallId": c.ToolCall.ID, "args": c.Args, "transcript": len(p.agent.Messages())}
		})
		r := t.forCall(c.ToolCall)
		if r == nil {
			return nil, nil
		}
		p.doActions(r.Actions)
		if r.Throw != "" {
			return nil, errors.New(r.Throw)
		}
		return r.beforeToolCall(), nil
	}
	return nil
}

// beforeToolCall is the result r gives, nil when it sets none of its
// fields.
func (r *rule) beforeToolCall() *agentcore.BeforeToolCallResult {
	if r.Block == nil && r.Reason == nil && r.Terminate == nil {
		return nil
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
	return res
}

func (p *player) installAfterToolCall(h *agentcore.Hooks) error {
	t, ok, err := p.table("afterToolCall")
	if !ok {
		return err
	}
	h.AfterToolCall = func(_ context.Context, c agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
		p.record(func() map[string]any {
			return map[string]any{"type": "hook", "hook": "afterToolCall", "toolCallId": c.ToolCall.ID, "isError": c.IsError, "result": c.Result}
		})
		r := t.forCall(c.ToolCall)
		if r == nil {
			return nil, nil
		}
		if r.Throw != "" {
			return nil, errors.New(r.Throw)
		}
		return r.afterToolCall()
	}
	return nil
}

// afterToolCall is the result r gives.
func (r *rule) afterToolCall() (*agentcore.AfterToolCallResult, error) {
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

func (p *player) installFinishTurn(h *agentcore.Hooks) error {
	t, ok, err := p.table("finishTurn")
	if !ok {
		return err
	}
	h.FinishTurn = func(_ context.Context, turn agentcore.TurnContext) (agentcore.TurnDecision, error) {
		n := p.callNumber("finishTurn", assistants(turn.Context.Messages)-1)
		p.record(func() map[string]any {
			return map[string]any{"type": "hook", "hook": "finishTurn", "call": n, "stopReason": turn.Message.StopReason, "toolResults": len(turn.ToolResults), "newMessages": len(turn.NewMessages)}
		})
		r := t.pick(strconv.Itoa(n))
		switch {
		case r == nil:
			return agentcore.TurnDefault, nil
		case r.Throw != "":
			return agentcore.TurnDefault, errors.New(r.Throw)
		case r.Action == "continue":
			return agentcore.TurnContinue, nil
		case r.Action == "end":
			return agentcore.TurnEnd, nil
		}
		return agentcore.TurnDefault, nil
	}
	return nil
}

func (p *player) installPrepareNextTurn(h *agentcore.Hooks) error {
	t, ok, err := p.table("prepareNextTurn")
	if !ok {
		return err
	}
	h.PrepareNextTurn = func(_ context.Context, turn agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
		n := p.callNumber("prepareNextTurn", assistants(turn.Context.Messages)-1)
		p.record(func() map[string]any {
			return map[string]any{"type": "hook", "hook": "prepareNextTurn", "call": n, "context": len(turn.Context.Messages)}
		})
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
	return nil
}

func (p *player) installPrepareRequest(h *agentcore.Hooks) error {
	t, ok, err := p.table("prepareRequest")
	if !ok {
		return err
	}
	h.PrepareRequest = func(_ context.Context, req agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
		n := p.callNumber("prepareRequest", assistants(req.Context.Messages))
		p.record(func() map[string]any {
			return map[string]any{"type": "hook", "hook": "prepareRequest", "call": n, "model": req.Model.ID, "thinkingLevel": req.ThinkingLevel, "context": len(req.Context.Messages)}
		})
		r := t.pick(strconv.Itoa(n))
		if r == nil {
			return nil, nil
		}
		if r.Throw != "" {
			return nil, errors.New(r.Throw)
		}
		return r.request(req.Context), nil
	}
	return nil
}

func (p *player) installTransformContext(h *agentcore.Hooks) error {
	r, ok, err := p.single("transformContext")
	if !ok {
		return err
	}
	h.TransformContext = func(_ context.Context, msgs []agentcore.Message) ([]agentcore.Message, error) {
		n := p.callNumber("transformContext", assistants(msgs))
		p.record(func() map[string]any {
			return map[string]any{"type": "hook", "hook": "transformContext", "call": n, "messages": len(msgs)}
		})
		if r.Throw != "" {
			return nil, errors.New(r.Throw)
		}
		return r.transformContext(msgs), nil
	}
	return nil
}

// transformContext is msgs as r transforms them: the last KeepLast
// messages after a leading system message, then AppendUser's text.
func (r *rule) transformContext(msgs []agentcore.Message) []agentcore.Message {
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
	return next
}

func (p *player) installConvertToLLM(h *agentcore.Hooks) error {
	r, ok, err := p.single("convertToLlm")
	if !ok {
		return err
	}
	h.ConvertToLLM = func(_ context.Context, msgs []agentcore.Message) ([]agentcore.Message, error) {
		if r.Throw != "" {
			return nil, errors.New(r.Throw)
		}
		out := make([]agentcore.Message, 0, len(msgs))
		for _, m := range msgs {
			switch {
			case agentcore.IsStandard(m):
				out = append(out, m)
			case r.CustomToUser:
				out = append(out, customToUser(m))
			}
		}
		return out, nil
	}
	return nil
}

func (p *player) installGetAPIKey(h *agentcore.Hooks) error {
	r, ok, err := p.single("getApiKey")
	if !ok {
		return err
	}
	h.GetAPIKey = func(_ context.Context, provider string) (string, error) {
		n := p.count("getApiKey")
		p.record(func() map[string]any {
			return map[string]any{"type": "hook", "hook": "getApiKey", "call": n, "provider": provider}
		})
		if len(r.Keys) == 0 {
			return "", nil
		}
		return r.Keys[min(n, len(r.Keys))-1], nil
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
