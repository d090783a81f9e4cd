package providertest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// ReadTestdata returns the file testdata/parts... of the test's package;
// a file that cannot be read fails the test.
func ReadTestdata(t testing.TB, parts ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{"testdata"}, parts...)...))
	require.NoError(t, err)
	return data
}

// StreamCase is one entry of testdata/stream/cases.json: a recorded
// response and how it is served.
type StreamCase struct {
	// Name names the recording, testdata/stream/NAME.pi.json.
	Name string `json:"name"`
	// Status, ContentType (empty means text/event-stream) and Headers
	// are served with Body, the file under testdata/stream.
	Status      int               `json:"status"`
	Body        string            `json:"body"`
	ContentType string            `json:"contentType"`
	Headers     map[string]string `json:"headers"`
}

// StreamCases reads testdata/stream/cases.json: the model the reference
// ran the bodies with, and the cases.
func StreamCases(t testing.TB) (agentcore.Model, []StreamCase) {
	t.Helper()
	var file struct {
		Model agentcore.Model `json:"model"`
		Cases []StreamCase    `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(ReadTestdata(t, "stream", "cases.json"), &file))
	return file.Model, file.Cases
}

// RequestCase is one entry of testdata/request/cases.json: a model and the
// request options (pi-ai's names) to send a transcript with.
type RequestCase struct {
	Name string `json:"name"`
	// Transcript names the transcript file under testdata/request; empty
	// means transcript.json.
	Transcript string          `json:"transcript"`
	Model      agentcore.Model `json:"model"`
	Options    struct {
		MaxTokens       int                             `json:"maxTokens"`
		Temperature     *float64                        `json:"temperature"`
		Reasoning       agentcore.ThinkingLevel         `json:"reasoning"`
		ThinkingBudgets map[agentcore.ThinkingLevel]int `json:"thinkingBudgets"`
		SessionID       string                          `json:"sessionId"`
		CacheRetention  string                          `json:"cacheRetention"`
		Metadata        json.RawMessage                 `json:"metadata"`
		Headers         map[string]string               `json:"headers"`
		SamplingParams  json.RawMessage                 `json:"samplingParams"`
		// APIKey, when set, replaces the key the provider's recordings
		// use ("" for none); Env is the environment pi-ai read.
		APIKey *string           `json:"apiKey"`
		Env    map[string]string `json:"env"`
	} `json:"options"`
	// Error says pi-ai failed the request (see [Target.FullURLRequests]).
	Error bool `json:"error"`
}

// RequestCases reads testdata/request/cases.json.
func RequestCases(t testing.TB) []RequestCase {
	t.Helper()
	var file struct {
		Cases []RequestCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(ReadTestdata(t, "request", "cases.json"), &file))
	return file.Cases
}

// StreamOptions returns the case's options with apiKey, unless the case
// names its own.
func (c RequestCase) StreamOptions(apiKey string) agentcore.StreamOptions {
	o := c.Options
	if o.APIKey != nil {
		apiKey = *o.APIKey
	}
	return agentcore.StreamOptions{
		APIKey: apiKey, MaxTokens: o.MaxTokens, Temperature: o.Temperature, Reasoning: o.Reasoning,
		ThinkingBudgets: o.ThinkingBudgets, SessionID: o.SessionID, CacheRetention: o.CacheRetention,
		Metadata: o.Metadata, Headers: o.Headers, SamplingParams: o.SamplingParams,
	}
}

// Getenv returns a function reading the case's environment.
func (c RequestCase) Getenv() func(string) string {
	return func(name string) string { return c.Options.Env[name] }
}

// Messages reads the case's transcript.
func (c RequestCase) Messages(t testing.TB) []agentcore.Message {
	t.Helper()
	name := c.Transcript
	if name == "" {
		name = "transcript.json"
	}
	messages, err := agentcore.UnmarshalMessages(ReadTestdata(t, "request", name))
	require.NoError(t, err)
	return messages
}
