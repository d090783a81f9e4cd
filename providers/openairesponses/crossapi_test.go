package openairesponses

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
	"github.com/pi-go/agentcore/providers/openai"
)

// crossCase is one entry of testdata/crossapi/cases.json, recorded by
// internal/provider/providertest/oracle/record-crossapi.mjs.
type crossCase struct {
	Name       string          `json:"name"`
	Model      agentcore.Model `json:"model"`
	Transcript string          `json:"transcript"`
	Answer     string          `json:"answer"`
	Options    struct {
		MaxTokens        int                     `json:"maxTokens"`
		Reasoning        agentcore.ThinkingLevel `json:"reasoning"`
		ReasoningEffort  agentcore.ThinkingLevel `json:"reasoningEffort"`
		ReasoningSummary string                  `json:"reasoningSummary"`
		ServiceTier      string                  `json:"serviceTier"`
	} `json:"options"`
}

// TestCrossAPIMatchesReference replays conversations across the two
// OpenAI APIs and checks the bodies and messages against pi-ai's: a
// conversation Chat Completions made, replayed into Responses with a
// service tier and a reasoning summary; one Responses made (reasoning
// items, "call|item" IDs, signed text), replayed into Chat Completions;
// one that went from Chat Completions to Responses, replayed into each.
// It also checks the pricing of the service tier a response reports, and
// the diagnostics of reasoning items the API removed.
func TestCrossAPIMatchesReference(t *testing.T) {
	var file struct {
		Cases []crossCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(providertest.ReadTestdata(t, "crossapi", "cases.json"), &file))
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			transcript, err := agentcore.UnmarshalMessages(readEither(t, c.Transcript))
			require.NoError(t, err)
			answer := providertest.ReadTestdata(t, c.Answer)
			seen := make(chan []byte, 1)
			srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				seen <- body
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write(answer)
			})
			client := srv.Client()
			client.Transport = redirect{to: srv.URL, rt: client.Transport}
			fn := openai.StreamFn(openai.Options{HTTPClient: client})
			if c.Model.API == "openai-responses" {
				fn = StreamFn(Options{HTTPClient: client, ServiceTier: c.Options.ServiceTier, ReasoningSummary: c.Options.ReasoningSummary})
			}
			so := agentcore.StreamOptions{APIKey: "sk-test", MaxTokens: c.Options.MaxTokens, Reasoning: c.Options.Reasoning}
			if c.Options.ReasoningEffort != "" {
				so.Reasoning = c.Options.ReasoningEffort
			}
			_, final := providertest.Collect(fn(t.Context(), c.Model, agentcore.Request{Messages: transcript}, so), nil)
			require.NotNil(t, final)
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)

			var ref requestRecording
			require.NoError(t, json.Unmarshal(providertest.ReadTestdata(t, "crossapi", c.Name+".pi.json"), &ref))
			assert.JSONEq(t, string(ref.Body), string(<-seen), "body differs from pi's")
			target := testTarget(t)
			want, got := target.ComparableMessage(t, providertest.ReferenceMessage(t, ref.Message)), target.ComparableMessage(t, final)
			assert.Equal(t, withoutDiagnosticTimes(want), withoutDiagnosticTimes(got), "message differs from pi's")
		})
	}
}

// withoutDiagnosticTimes returns m, a message as JSON values, with the
// timestamps of its diagnostics (the time they were made) zeroed.
func withoutDiagnosticTimes(m any) any {
	diagnostics, _ := m.(map[string]any)["diagnostics"].([]any)
	for _, d := range diagnostics {
		if d, ok := d.(map[string]any); ok && d["timestamp"] != nil {
			d["timestamp"] = 0
		}
	}
	return m
}

// readEither reads a transcript of testdata/crossapi, else of
// testdata/request.
func readEither(t *testing.T, name string) []byte {
	t.Helper()
	for _, dir := range []string{"crossapi", "request"} {
		if data, err := testdataFS(dir, name); err == nil {
			return data
		}
	}
	t.Fatalf("no transcript %s", name)
	return nil
}
