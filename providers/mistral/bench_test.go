package mistral

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// BenchmarkDecode streams a response of thinking, text and a tool call
// (see providertest's Target.BenchmarkDecode).
func BenchmarkDecode(b *testing.B) {
	testTarget(b).BenchmarkDecode(b, providertest.ReadTestdata(b, "stream", "thinking.sse"))
}

// turnBody is a coding-agent turn as the stream-path benchmarks of the
// other providers read it (BENCHMARKS.md): 400 thinking deltas, 1,200
// text deltas, 4 parallel tool calls of 2.4 KB arguments in 60 pieces.
func turnBody() []byte {
	var b bytes.Buffer
	chunk := func(delta string) {
		fmt.Fprintf(&b, `data: {"id":"c","choices":[{"index":0,"delta":%s,"finish_reason":null}]}`+"\n\n", delta)
	}
	quote := func(s string) string { q, _ := json.Marshal(s); return string(q) }
	for i := range 400 {
		chunk(`{"content":[{"type":"thinking","thinking":[{"type":"text","text":` + quote(fmt.Sprintf("think %d ", i)) + `}]}]}`)
	}
	for i := range 1200 {
		chunk(`{"content":` + quote(fmt.Sprintf("word %d ", i)) + `}`)
	}
	args := `{"path":"` + strings.Repeat("a", 2400-12) + `"}`
	for c := range 4 {
		for p := range 60 {
			piece := args[p*len(args)/60 : (p+1)*len(args)/60]
			id := ""
			if p == 0 {
				id = fmt.Sprintf(`"id":"call%05d",`, c)
			}
			chunk(fmt.Sprintf(`{"tool_calls":[{%s"index":%d,"function":{"name":"read","arguments":%s}}]}`, id, c, quote(piece)))
		}
	}
	fmt.Fprintf(&b, `data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":20,"total_tokens":30}}`+"\n\ndata: [DONE]\n\n")
	return b.Bytes()
}

// BenchmarkStreamPath reads one turn over HTTP with this provider and
// with the floor (lines split, one json.Unmarshal per chunk into a small
// struct, text and arguments appended), as BENCHMARKS.md's stream path
// does for the other providers; the budget is 1.5x the floor's time and
// 2x its bytes.
func BenchmarkStreamPath(b *testing.B) {
	body := turnBody()
	srv := providertest.ServeBody(b, 200, "text/event-stream", nil, body)
	model := agentcore.Model{ID: "bench-model", Provider: "mistral", API: "mistral-conversations", Reasoning: true, MaxTokens: 4096, ContextWindow: 200000}
	b.Run("agentcore", func(b *testing.B) {
		fn := StreamFn(Options{BaseURL: srv.URL, APIKey: "k", HTTPClient: srv.Client()})
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			var final *agentcore.AssistantMessage
			for ev := range fn(context.Background(), model, providertest.HiRequest(), agentcore.StreamOptions{}) {
				if e, ok := ev.(*agentcore.DoneEvent); ok {
					final = e.Message
				}
			}
			require.NotNil(b, final)
			require.Len(b, final.Content, 6)
		}
	})
	b.Run("floor", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			require.NoError(b, floor(srv.Client(), srv.URL))
		}
	})
}

// floor is the least a correct reader does: one request, lines split,
// each chunk decoded into a small struct, text and arguments appended.
func floor(client *http.Client, url string) error {
	resp, err := client.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"bench-model","stream":true,"messages":[{"role":"user","content":"go"}]}`))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	type chunk struct {
		Choices []struct {
			Delta struct {
				Content   json.RawMessage `json:"content"`
				ToolCalls []struct {
					Index    int `json:"index"`
					Function struct {
						Arguments string `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"delta"`
		} `json:"choices"`
	}
	var text, thinking strings.Builder
	args := map[int]*strings.Builder{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
		if !ok || string(line) == "[DONE]" {
			continue
		}
		var c chunk
		if err := json.Unmarshal(line, &c); err != nil {
			return err
		}
		if len(c.Choices) == 0 {
			continue
		}
		d := c.Choices[0].Delta
		var s string
		var items []struct {
			Thinking []struct {
				Text string `json:"text"`
			} `json:"thinking"`
		}
		switch {
		case json.Unmarshal(d.Content, &s) == nil:
			text.WriteString(s)
		case json.Unmarshal(d.Content, &items) == nil:
			for _, it := range items {
				for _, t := range it.Thinking {
					thinking.WriteString(t.Text)
				}
			}
		}
		for _, tc := range d.ToolCalls {
			if args[tc.Index] == nil {
				args[tc.Index] = &strings.Builder{}
			}
			args[tc.Index].WriteString(tc.Function.Arguments)
		}
	}
	return sc.Err()
}
