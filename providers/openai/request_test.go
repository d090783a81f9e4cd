package openai

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/golden"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// requestCase is one entry of testdata/request/cases.json: a model and
// request options to send testdata/request/transcript.json with.
type requestCase struct {
	Name    string          `json:"name"`
	Model   agentcore.Model `json:"model"`
	Options struct {
		MaxTokens      int                     `json:"maxTokens"`
		Temperature    *float64                `json:"temperature"`
		Reasoning      agentcore.ThinkingLevel `json:"reasoning"`
		SessionID      string                  `json:"sessionId"`
		CacheRetention string                  `json:"cacheRetention"`
	} `json:"options"`
}

func (c requestCase) streamOptions() agentcore.StreamOptions {
	return agentcore.StreamOptions{
		APIKey: "sk-test", MaxTokens: c.Options.MaxTokens, Temperature: c.Options.Temperature,
		Reasoning: c.Options.Reasoning, SessionID: c.Options.SessionID, CacheRetention: c.Options.CacheRetention,
	}
}

func requestCases(t *testing.T) ([]requestCase, []agentcore.Message) {
	t.Helper()
	var file struct {
		Cases []requestCase `json:"cases"`
	}
	if err := json.Unmarshal(providertest.ReadTestdata(t, "request", "cases.json"), &file); err != nil {
		t.Fatal(err)
	}
	transcript, err := agentcore.UnmarshalMessages(providertest.ReadTestdata(t, "request", "transcript.json"))
	if err != nil {
		t.Fatal(err)
	}
	return file.Cases, transcript
}

// requestBody is the body StreamFn(Options{}) sends for c.
func requestBody(t *testing.T, c requestCase, transcript []agentcore.Message) []byte {
	t.Helper()
	s, err := resolveSettings(Options{}, c.Model, Options{}.baseURL(c.Model))
	if err != nil {
		t.Fatal(err)
	}
	body, err := json.MarshalIndent(buildRequest(c.Model, transcript, c.streamOptions(), s), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(body, '\n')
}

// TestRequestGolden compares the body sent for a transcript with system
// sections and a mid-run system message, images, thinking, tool calls and
// results, a failed turn and an orphaned call, with its golden file
// (go test -update rewrites them), and the golden file with the body
// pi-ai 1.5.2 sent for the same input (NAME.pi.json).
func TestRequestGolden(t *testing.T) {
	cases, transcript := requestCases(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got := requestBody(t, c, transcript)
			golden.Check(t, got, filepath.Join("testdata", "request", c.Name+".golden.json"))
			if g, w := decodeJSON(t, got), decodeJSON(t, providertest.ReadTestdata(t, "request", c.Name+".pi.json")); !reflect.DeepEqual(g, w) {
				t.Errorf("body differs from pi's:\n got: %s\nwant: %s", jsonText(t, g), jsonText(t, w))
			}
		})
	}
}

func decodeJSON(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRequestOnTheWire checks what reaches the server: the golden body at
// BaseURL + /chat/completions, the per-request key, the headers in order
// of precedence, and a transcript left as it was.
func TestRequestOnTheWire(t *testing.T) {
	cases, transcript := requestCases(t)
	c := cases[0] // "collapse": its body does not depend on the base URL
	before := jsonText(t, transcript)
	var got struct {
		path   string
		header http.Header
		body   []byte
	}
	srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		got.path, got.header = r.URL.Path, r.Header.Clone()
		got.body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(providertest.ReadTestdata(t, "stream", "text.sse"))
	})
	model := c.Model
	model.Headers = map[string]string{"X-Model": "model", "X-Shared": "model"}
	opts := c.streamOptions()
	opts.Headers = map[string]string{"X-Request": "request", "X-Shared": "request"}
	fn := StreamFn(Options{BaseURL: srv.URL + "/v1/", APIKey: "sk-fallback", HTTPClient: srv.Client(),
		Headers: map[string]string{"X-Options": "options", "X-Shared": "options"}})
	if _, final := providertest.Collect(fn(t.Context(), model, agentcore.Request{Messages: transcript}, opts), nil); final.StopReason != agentcore.StopStop {
		t.Fatalf("stopReason %s: %s", final.StopReason, final.ErrorMessage)
	}
	if got.path != "/v1/chat/completions" {
		t.Errorf("path %q", got.path)
	}
	for name, want := range map[string]string{
		"Authorization": "Bearer sk-test", "Content-Type": "application/json",
		"Accept":  "application/json", // pi-ai's SDK asks for JSON, even for a stream
		"X-Model": "model", "X-Options": "options", "X-Request": "request", "X-Shared": "request",
	} {
		if v := got.header.Get(name); v != want {
			t.Errorf("header %s = %q, want %q", name, v, want)
		}
	}
	if g, w := decodeJSON(t, got.body), decodeJSON(t, providertest.ReadTestdata(t, "request", c.Name+".golden.json")); !reflect.DeepEqual(g, w) {
		t.Errorf("body on the wire differs from the golden file:\n%s", got.body)
	}
	if after := jsonText(t, transcript); after != before {
		t.Error("the stream function modified the transcript")
	}
}

func TestAPIKey(t *testing.T) {
	tests := []struct {
		name        string
		optionsKey  string
		requestKey  string
		wantHeader  string
		wantPresent bool
	}{
		{name: "request key wins", optionsKey: "sk-options", requestKey: "sk-request", wantHeader: "Bearer sk-request", wantPresent: true},
		{name: "options key is the fallback", optionsKey: "sk-options", wantHeader: "Bearer sk-options", wantPresent: true},
		{name: "no key, no header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var header []string
			srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
				header = r.Header.Values("Authorization")
				w.Write(providertest.ReadTestdata(t, "stream", "text.sse"))
			})
			model, _ := providertest.StreamCases(t)
			fn := StreamFn(Options{BaseURL: srv.URL, APIKey: tt.optionsKey, HTTPClient: srv.Client()})
			providertest.Collect(fn(t.Context(), model, providertest.HiRequest(), agentcore.StreamOptions{APIKey: tt.requestKey}), nil)
			if tt.wantPresent != (len(header) == 1) || tt.wantPresent && header[0] != tt.wantHeader {
				t.Errorf("Authorization %q, want %q", header, tt.wantHeader)
			}
		})
	}
}

func TestSystemMessageModes(t *testing.T) {
	messages := []agentcore.Message{
		&agentcore.SystemMessage{Content: agentcore.Text("Base."), Sections: agentcore.Sections{{Name: "a", Text: "Section A."}}},
		&agentcore.UserMessage{Content: agentcore.Text("hi")},
		&agentcore.SystemMessage{Content: agentcore.Text("Later."), Sections: agentcore.Sections{{Name: "a", Removed: true}}},
	}
	tests := []struct {
		name   string
		mode   SystemMessageMode
		compat string
		want   []string // role: content
	}{
		{name: "auto collapses by default", want: []string{"system: Base.\n\nLater.", "user: hi"}},
		{name: "auto follows the model's compat", compat: `{"supportsMidConvoSystemMessages":true}`,
			want: []string{"system: Base.\n\nSection A.", "user: hi", "system: Later.\n\nRemoved system prompt section \"a\"."}},
		{name: "collapse overrides compat", mode: SystemMessagesCollapse, compat: `{"supportsMidConvoSystemMessages":true}`,
			want: []string{"system: Base.\n\nLater.", "user: hi"}},
		{name: "in place", mode: SystemMessagesInPlace,
			want: []string{"system: Base.\n\nSection A.", "user: hi", "system: Later.\n\nRemoved system prompt section \"a\"."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := agentcore.Model{ID: "m", Compat: json.RawMessage(tt.compat)}
			s, err := resolveSettings(Options{SystemMessages: tt.mode}, model, DefaultBaseURL)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range buildRequest(model, messages, agentcore.StreamOptions{}, s).Messages {
				got = append(got, m.Role+": "+m.Content.(string))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("messages %q, want %q", got, tt.want)
			}
		})
	}
}

func TestInvalidCompatFailsTheRequest(t *testing.T) {
	srv := providertest.ServeBody(t, 200, "text/event-stream", nil, providertest.ReadTestdata(t, "stream", "text.sse"))
	model := agentcore.Model{ID: "m", Compat: json.RawMessage(`[1]`)}
	_, final := providertest.Collect(streamFrom(srv)(t.Context(), model, providertest.HiRequest(), agentcore.StreamOptions{}), nil)
	if final.StopReason != agentcore.StopError || final.ErrorMessage == "" {
		t.Errorf("final = %s %q, want an error", final.StopReason, final.ErrorMessage)
	}
}

// jsonText returns v as JSON.
func jsonText(t *testing.T, v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
