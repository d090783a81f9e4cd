package agentcore

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestSameStateSeesEveryField changes each field of an assistant message,
// and of a tool call inside it, one at a time: sameState must notice every
// change, or a snapshot would be shared between different partials.
func TestSameStateSeesEveryField(t *testing.T) {
	base := func() *AssistantMessage {
		return &AssistantMessage{
			Content: []ContentBlock{TextBlock{Text: "t"}, ToolCall{ID: "c", Name: "n", Arguments: json.RawMessage(`{}`)}},
			API:     "a", Provider: "p", Model: "m", StopReason: StopStop, Timestamp: 1,
		}
	}
	if !base().sameState(base()) {
		t.Fatal("equal messages differ")
	}
	msgType := reflect.TypeFor[AssistantMessage]()
	for i := range msgType.NumField() {
		f := msgType.Field(i)
		if f.Name == "Content" {
			continue
		}
		m := base()
		change(t, reflect.ValueOf(m).Elem().Field(i), f.Name)
		if base().sameState(m) {
			t.Errorf("a change of %s goes unnoticed", f.Name)
		}
	}
	callType := reflect.TypeFor[ToolCall]()
	for i := range callType.NumField() {
		f := callType.Field(i)
		m := base()
		call := m.Content[1].(ToolCall)
		change(t, reflect.ValueOf(&call).Elem().Field(i), f.Name)
		m.Content[1] = call
		if base().sameState(m) {
			t.Errorf("a change of ToolCall.%s goes unnoticed", f.Name)
		}
	}
	for _, block := range []ContentBlock{TextBlock{Text: "t", TextSignature: "s"}, ThinkingBlock{Thinking: "t"}, ImageBlock{Data: "d"}} {
		m := base()
		m.Content[0] = block
		if base().sameState(m) {
			t.Errorf("a change to %#v goes unnoticed", block)
		}
	}
}

// change sets v to a value that differs from its current one.
func change(t *testing.T, v reflect.Value, name string) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Slice: // json.RawMessage
		v.SetBytes(append(v.Bytes(), ' '))
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		change(t, p.Elem(), name)
		v.Set(p)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Struct: // Usage
		change(t, v.Field(0), name)
	default:
		t.Fatalf("field %s: cannot change a %s", name, v.Kind())
	}
}

// TestCloneSizes checks that a clone holds the content, whatever its
// length, in a slice of its own without spare capacity.
func TestCloneSizes(t *testing.T) {
	for n := range 12 {
		m := &AssistantMessage{Model: "m"}
		for i := range n {
			m.Content = append(m.Content, TextBlock{Text: string(rune('a' + i))})
		}
		c := m.Clone()
		if !c.sameState(m) || c.Content == nil || cap(c.Content) != n {
			t.Fatalf("%d blocks: clone %+v (cap %d)", n, c, cap(c.Content))
		}
		if n > 0 {
			c.Content[0] = TextBlock{Text: "changed"}
			if m.Content[0].(TextBlock).Text != "a" {
				t.Fatalf("%d blocks: the clone shares the original's blocks", n)
			}
		}
	}
}
