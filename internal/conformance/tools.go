package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// ToolDef is a scripted tool.
type ToolDef struct {
	Description      string                       `json:"description"`
	Label            string                       `json:"label"`
	Parameters       json.RawMessage              `json:"parameters"`
	ExecutionMode    string                       `json:"executionMode"`
	PrepareArguments *struct{ Rename orderedMap } `json:"prepareArguments"`
	Behavior         map[string]json.RawMessage   `json:"behavior"`
}

// Behavior is what a scripted tool's execute does, in FORMAT.md's order.
type Behavior struct {
	SleepMs int `json:"sleepMs"`
	Updates []struct {
		Content json.RawMessage `json:"content"`
		Details json.RawMessage `json:"details"`
	} `json:"updates"`
	Actions      *Actions        `json:"actions"`
	WaitForAbort bool            `json:"waitForAbort"`
	Throw        string          `json:"throw"`
	Result       json.RawMessage `json:"result"`
	Echo         *bool           `json:"echo"`
}

// behavior returns the tool's behavior merged with the call's, decoded once
// per scenario: once per tool for the calls that have no behavior of their
// own.
func (s *Scenario) behavior(name string, def ToolDef, id string) (*Behavior, error) {
	key := behaviorKey{name, id}
	if _, own := s.Calls[id]; !own {
		key.call = ""
	}
	s.mu.RLock()
	b, ok := s.behaviors[key]
	s.mu.RUnlock()
	if ok {
		return b, nil
	}
	merged := map[string]json.RawMessage{}
	for k, v := range def.Behavior {
		merged[k] = v
	}
	for k, v := range s.Calls[id] {
		merged[k] = v
	}
	raw, _ := json.Marshal(merged)
	b = new(Behavior)
	if err := json.Unmarshal(raw, b); err != nil {
		return nil, fmt.Errorf("behavior of %s: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.behaviors == nil {
		s.behaviors = make(map[behaviorKey]*Behavior)
	}
	s.behaviors[key] = b
	return b, nil
}

// behaviorKey names the behavior of one call of one tool.
type behaviorKey struct{ tool, call string }

func (p *player) makeTools(names []string) ([]agentcore.Tool, error) {
	tools := make([]agentcore.Tool, 0, len(names))
	for _, name := range names {
		t, err := p.makeTool(name)
		if err != nil {
			return nil, err
		}
		tools = append(tools, t)
	}
	return tools, nil
}

func (p *player) makeTool(name string) (agentcore.Tool, error) {
	def := p.s.Tools[name]
	t := agentcore.Tool{
		Name: name, Label: name, Description: def.Description, Parameters: def.Parameters,
		ExecutionMode: agentcore.ToolExecutionMode(def.ExecutionMode),
	}
	if def.Label != "" {
		t.Label = def.Label
	}
	if len(t.Parameters) == 0 {
		t.Parameters = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	if def.PrepareArguments != nil {
		rename := def.PrepareArguments.Rename
		t.PrepareArguments = func(args json.RawMessage) (json.RawMessage, error) { return renameKeys(args, rename), nil }
	}
	t.Execute = func(ctx context.Context, id string, args json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return p.execute(ctx, name, def, id, args, onUpdate)
	}
	return t, nil
}

// execute plays a tool's behavior merged with its call's.
func (p *player) execute(ctx context.Context, name string, def ToolDef, id string, args json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
	if p.rec.enabled {
		p.rec.out(map[string]any{"type": "exec", "toolCallId": id, "toolName": name, "args": args})
	}
	b, err := p.s.behavior(name, def, id)
	if err != nil {
		return agentcore.ToolResult{}, err
	}
	if b.SleepMs > 0 {
		time.Sleep(time.Duration(b.SleepMs) * time.Millisecond)
	}
	for _, u := range b.Updates {
		content := u.Content
		if len(content) == 0 {
			content = json.RawMessage("[]")
		}
		r, err := toolResult(map[string]json.RawMessage{"content": content, "details": u.Details})
		if err != nil {
			return agentcore.ToolResult{}, err
		}
		onUpdate(r)
	}
	p.doActions(b.Actions)
	if b.WaitForAbort {
		<-ctx.Done()
		return agentcore.ToolResult{}, errors.New("aborted")
	}
	if b.Throw != "" {
		return agentcore.ToolResult{}, errors.New(b.Throw)
	}
	if len(b.Result) > 0 {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(b.Result, &fields); err != nil {
			return agentcore.ToolResult{}, err
		}
		return toolResult(fields)
	}
	if b.Echo != nil && !*b.Echo {
		return okResult, nil
	}
	return agentcore.TextResult(agentcoretest.CanonicalJSON(args)), nil
}

// okResult is the result of a tool that does not echo its arguments; a
// result is a value nobody modifies, so one serves every call.
var okResult = agentcore.TextResult("ok")

// toolResult builds a result from scripted fields; details default to {}.
// An absent content stays absent, as the reference's object spread leaves it.
func toolResult(fields map[string]json.RawMessage) (agentcore.ToolResult, error) {
	if len(fields["details"]) == 0 {
		fields["details"] = json.RawMessage("{}")
	}
	raw, err := json.Marshal(fields)
	if err != nil {
		return agentcore.ToolResult{}, err
	}
	var r agentcore.ToolResult
	err = json.Unmarshal(raw, &r)
	return r, err
}

// decodeBlocks reads a block list through a user message, which takes text
// and image blocks.
func decodeBlocks(raw json.RawMessage) ([]agentcore.ContentBlock, error) {
	var u agentcore.UserMessage
	if err := json.Unmarshal([]byte(`{"role":"user","content":`+string(raw)+`}`), &u); err != nil {
		return nil, err
	}
	return u.Content.Blocks, nil
}

// orderedMap is a JSON object read in key order.
type orderedMap struct {
	keys   []string
	values []json.RawMessage
}

func (m *orderedMap) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("expected an object")
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		key, _ := k.(string)
		if i := m.index(key); i >= 0 {
			m.values[i] = v
			continue
		}
		m.keys = append(m.keys, key)
		m.values = append(m.values, v)
	}
	_, err = dec.Token()
	return err
}

func (m *orderedMap) index(key string) int {
	for i, k := range m.keys {
		if k == key {
			return i
		}
	}
	return -1
}

func (m *orderedMap) delete(key string) {
	if i := m.index(key); i >= 0 {
		m.keys = append(m.keys[:i:i], m.keys[i+1:]...)
		m.values = append(m.values[:i:i], m.values[i+1:]...)
	}
}

func (m *orderedMap) marshal() json.RawMessage {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(m.values[i])
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

// renameKeys moves each key from to to when to is absent, keeping order
// like the reference's object spread (a moved key goes last).
func renameKeys(args json.RawMessage, rename orderedMap) json.RawMessage {
	var obj orderedMap
	if obj.UnmarshalJSON(args) != nil {
		return args
	}
	for i, from := range rename.keys {
		var to string
		if json.Unmarshal(rename.values[i], &to) != nil {
			continue
		}
		if j := obj.index(from); j >= 0 && obj.index(to) < 0 {
			v := obj.values[j]
			obj.delete(from)
			obj.keys = append(obj.keys, to)
			obj.values = append(obj.values, v)
		}
	}
	return obj.marshal()
}
