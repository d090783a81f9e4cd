package agentcore_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// traceMessages collects every message object of the reference traces.
func traceMessages(t testing.TB) []json.RawMessage {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "conformance", "expected", "*.jsonl"))
	require.NoError(t, err, "no traces")
	require.NotEmpty(t, files, "no traces")
	var out []json.RawMessage
	for _, f := range files {
		fh, err := os.Open(f)
		require.NoError(t, err)
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var rec map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(sc.Bytes(), &rec), f)
			for _, key := range []string{"message"} {
				if m, ok := rec[key]; ok {
					out = append(out, m)
				}
			}
			for _, key := range []string{"messages", "toolResults"} {
				var list []json.RawMessage
				if m, ok := rec[key]; ok && json.Unmarshal(m, &list) == nil {
					out = append(out, list...)
				}
			}
		}
		fh.Close()
	}
	return out
}

// plain decodes JSON into generic values, durationMs "*" made a number and
// timestamps dropped (the traces have neither).
func plain(t testing.TB, data []byte) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(data, &v), "%s", data)
	var walk func(any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			delete(v, "timestamp")
			for k, x := range v {
				if k == "durationMs" && x == "*" {
					v[k] = float64(7)
					continue
				}
				v[k] = walk(x)
			}
		case []any:
			for i, x := range v {
				v[i] = walk(x)
			}
		}
		return v
	}
	return walk(v)
}

// TestMessageRoundTrip decodes every message of the reference traces and
// marshals it back to equal JSON.
func TestMessageRoundTrip(t *testing.T) {
	msgs := traceMessages(t)
	checked := 0
	for _, raw := range msgs {
		want := plain(t, raw)
		if m, ok := want.(map[string]any); ok && len(m) == 1 {
			continue // an assistant message_start records only its role
		}
		input, _ := json.Marshal(want)
		m, err := agentcore.UnmarshalMessage(input)
		if !assert.NoError(t, err, "decode %s", input) {
			continue
		}
		out, err := json.Marshal(m)
		if !assert.NoError(t, err, "encode %T", m) {
			continue
		}
		assert.Equal(t, want, plain(t, out), "round trip of %T differs\nwant %s\ngot  %s", m, input, out)
		checked++
	}
	assert.GreaterOrEqual(t, checked, 100, "messages checked")
}

func TestUnmarshalMessageKinds(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string // Go type
		wantErr bool
	}{
		{name: "system string", in: `{"role":"system","content":"hi","timestamp":1}`, want: "*agentcore.SystemMessage"},
		{name: "system sections", in: `{"role":"system","content":[{"type":"text","text":"a"}],"sections":{"b":"x","a":null},"timestamp":1}`, want: "*agentcore.SystemMessage"},
		{name: "user string", in: `{"role":"user","content":"hi","timestamp":1}`, want: "*agentcore.UserMessage"},
		{name: "user image", in: `{"role":"user","content":[{"type":"image","data":"AA==","mimeType":"image/png"}],"timestamp":1}`, want: "*agentcore.UserMessage"},
		{name: "assistant", in: `{"role":"assistant","content":[{"type":"thinking","thinking":"t","redacted":true},{"type":"toolCall","id":"1","name":"x","arguments":{"a":1}}],"api":"a","provider":"p","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":1}`, want: "*agentcore.AssistantMessage"},
		{name: "tool result", in: `{"role":"toolResult","toolCallId":"1","toolName":"x","content":[],"details":{"k":[1]},"isError":false,"timestamp":1}`, want: "*agentcore.ToolResultMessage"},
		{name: "custom", in: `{"role":"artifact","path":"a.svg","nested":{"x":[1,2]}}`, want: "*agentcore.CustomMessage"},
		{name: "unknown block kept", in: `{"role":"assistant","content":[{"type":"future","x":1}],"api":"","provider":"","model":"","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":0}`, want: "*agentcore.AssistantMessage"},
		{name: "no role", in: `{"content":"x"}`, wantErr: true},
		{name: "not an object", in: `[1]`, wantErr: true},
		{name: "tool call args not object", in: `{"role":"assistant","content":[{"type":"toolCall","id":"1","name":"x","arguments":[1]}]}`, wantErr: true},
		{name: "image in system", in: `{"role":"system","content":[{"type":"image","data":"","mimeType":""}]}`, wantErr: true},
		{name: "bad sections", in: `{"role":"system","content":"","sections":{"a":1}}`, wantErr: true},
		{name: "truncated", in: `{"role":"user","content":[{"type":"text","te`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := agentcore.UnmarshalMessage([]byte(tt.in))
			if tt.wantErr {
				assert.Error(t, err, "want an error, got %T", m)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, reflect.TypeOf(m).String(), "type")
			out, err := json.Marshal(m)
			require.NoError(t, err)
			assert.Equal(t, plain(t, []byte(tt.in)), plain(t, out), "round trip differs\nwant %s\ngot  %s", tt.in, out)
		})
	}
}

type artifact struct {
	Path string `json:"path"`
}

func (artifact) Role() string { return "artifact" }

func (a artifact) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]string{"role": "artifact", "path": a.Path})
}

func TestMessageRegistry(t *testing.T) {
	var reg agentcore.MessageRegistry
	reg.Register("artifact", func(data []byte) (agentcore.Message, error) {
		var a artifact
		err := json.Unmarshal(data, &a)
		return a, err
	})
	msgs, err := reg.UnmarshalMessages([]byte(`[{"role":"artifact","path":"x.svg"},{"role":"note","text":"n"},{"role":"user","content":"hi","timestamp":3}]`))
	require.NoError(t, err)
	assert.Equal(t, artifact{Path: "x.svg"}, msgs[0], "registered role decoded")
	if assert.IsType(t, &agentcore.CustomMessage{}, msgs[1], "unknown role decoded as %#v", msgs[1]) {
		assert.Equal(t, `"n"`, string(msgs[1].(*agentcore.CustomMessage).Field("text")), "unknown role decoded as %#v", msgs[1])
	}
	out, _ := json.Marshal(msgs)
	assert.Equal(t, `[{"path":"x.svg","role":"artifact"},{"role":"note","text":"n"},{"role":"user","content":"hi","timestamp":3}]`, string(out), "marshal")
	assert.False(t, agentcore.IsStandard(msgs[0]), "IsStandard of a registered role")
	assert.True(t, agentcore.IsStandard(msgs[2]), "IsStandard of a user message")
}

// TestMessageRegistryNilDecode registers a decoder that answers no message
// and no error: decoding fails instead of putting a nil in the transcript.
func TestMessageRegistryNilDecode(t *testing.T) {
	var reg agentcore.MessageRegistry
	reg.Register("ghost", func([]byte) (agentcore.Message, error) { return nil, nil })
	msgs, err := reg.UnmarshalMessages([]byte(`[{"role":"user","content":"hi"},{"role":"ghost"}]`))
	require.ErrorIs(t, err, agentcore.ErrNilMessage)
	assert.Nil(t, msgs)
	assert.EqualError(t, err, "message 1: agentcore: ghost message: agentcore: nil message: the decoder returned none")
}

func FuzzUnmarshalMessage(f *testing.F) {
	for _, raw := range traceMessages(f)[:40] {
		f.Add([]byte(raw))
	}
	f.Add([]byte(`{"role":"system","sections":{"a":null}}`))
	f.Add([]byte(`{"role":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := agentcore.UnmarshalMessage(data)
		if err != nil {
			return
		}
		out, err := json.Marshal(m)
		if err != nil {
			return // e.g. invalid UTF-8 kept in a custom message
		}
		_, err = agentcore.UnmarshalMessage(out)
		assert.NoError(t, err, "re-decoding %s", out)
	})
}

func TestMessageText(t *testing.T) {
	tests := []struct {
		name string
		msg  interface{ Text() string }
		want string
	}{
		{"user string", agentcore.UserText("hello"), "hello"},
		{"user blocks", &agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: "a"}, agentcore.ImageBlock{Data: "x"}, agentcore.TextBlock{Text: "b"})}, "a\nb"},
		{"assistant", &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.ThinkingBlock{Thinking: "t"}, agentcore.TextBlock{Text: "answer"}}}, "answer"},
		{"tool result", &agentcore.ToolResultMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "out"}}}, "out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.msg.Text(), "Text()")
		})
	}
}
