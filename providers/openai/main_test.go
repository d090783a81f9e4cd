package openai

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"go.uber.org/goleak"

	"github.com/pi-go/agentcore"
)

// TestMain fails the package when a test leaves a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// readTestdata returns a file under testdata.
func readTestdata(t *testing.T, parts ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{"testdata"}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// streamCase is one entry of testdata/stream/cases.json.
type streamCase struct {
	Name        string `json:"name"`
	Status      int    `json:"status"`
	Body        string `json:"body"`
	ContentType string `json:"contentType"`
}

// streamCases reads testdata/stream/cases.json: the model the reference
// ran the bodies with, and the cases.
func streamCases(t *testing.T) (agentcore.Model, []streamCase) {
	t.Helper()
	var file struct {
		Model agentcore.Model `json:"model"`
		Cases []streamCase    `json:"cases"`
	}
	if err := json.Unmarshal(readTestdata(t, "stream", "cases.json"), &file); err != nil {
		t.Fatal(err)
	}
	return file.Model, file.Cases
}

// serveBody starts a server answering every request with status and body.
func serveBody(t testing.TB, status int, contentType string, body []byte) *httptest.Server {
	t.Helper()
	return serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		w.Write(body)
	})
}

// serve starts a server closed when the test ends.
func serve(t testing.TB, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// streamFrom returns a stream function for srv.
func streamFrom(srv *httptest.Server) agentcore.StreamFn {
	return StreamFn(Options{BaseURL: srv.URL + "/v1", HTTPClient: srv.Client()})
}

// hiRequest is the one-message transcript the reference was run with.
func hiRequest() agentcore.Request {
	return agentcore.Request{Messages: []agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("Hi"), Timestamp: 1}}}
}

// collect ranges over s, calling each after every event (it may cancel),
// and returns the events and the final message.
func collect(s agentcore.AssistantStream, each func(agentcore.AssistantEvent)) ([]agentcore.AssistantEvent, *agentcore.AssistantMessage) {
	var events []agentcore.AssistantEvent
	var final *agentcore.AssistantMessage
	for ev := range s {
		events = append(events, agentcore.CloneEvent(ev))
		switch ev := ev.(type) {
		case *agentcore.DoneEvent:
			final = ev.Message
		case *agentcore.ErrorEvent:
			final = ev.Message
		}
		if each != nil {
			each(ev)
		}
	}
	return events, final
}

// run streams one request to srv with the reference's model and key.
func run(t *testing.T, ctx context.Context, fn agentcore.StreamFn, each func(agentcore.AssistantEvent)) ([]agentcore.AssistantEvent, *agentcore.AssistantMessage) {
	t.Helper()
	model, _ := streamCases(t)
	events, final := collect(fn(ctx, model, hiRequest(), agentcore.StreamOptions{APIKey: "sk-test"}), each)
	if final == nil {
		t.Fatalf("stream ended without a final event: %v", events)
	}
	return events, final
}

// parseErrorText matches the parser's own words in an argumentsError,
// which differ between JavaScript and Go; the received text must match.
var parseErrorText = regexp.MustCompile(`(?s)^.*(\n\nReceived arguments:\n)`)

func normalizeArgumentsError(s string) string {
	return parseErrorText.ReplaceAllString(s, "<parse error>$1")
}
