package providers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/anthropic"
	"github.com/pi-go/agentcore/providers/google"
	"github.com/pi-go/agentcore/providers/mistral"
	"github.com/pi-go/agentcore/providers/openai"
	"github.com/pi-go/agentcore/providers/openairesponses"
	"github.com/pi-go/agentcore/providers/vertex"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The answers of each API: a text "Hi" and the end of the response.
const (
	openAIBody = "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n" +
		"data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	anthropicBody = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	responsesBody = "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"in_progress\",\"content\":[],\"role\":\"assistant\"}}\n\n" +
		"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"delta\":\"Hi\"}\n\n" +
		"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"completed\",\"content\":[{\"type\":\"output_text\",\"text\":\"Hi\"}],\"role\":\"assistant\"}}\n\n" +
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"output\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1,\"total_tokens\":2}}}\n\n"
	googleBody  = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hi\"}],\"role\":\"model\"},\"finishReason\":\"STOP\"}]}\n\n"
	mistralBody = "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
)

// request is what a server saw of a request.
type request struct {
	path string
	key  string // the key, in the API's header
}

// serve answers every request with body, reporting it on seen.
func serve(t *testing.T, body string, seen chan<- request) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		key := r.Header.Get("Authorization")
		for _, h := range []string{"X-Api-Key", "X-Goog-Api-Key", "Api-Key"} {
			if v := r.Header.Get(h); v != "" {
				key = v
			}
		}
		seen <- request{path: r.URL.Path, key: key}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// final streams one request and returns its final message.
func final(t *testing.T, fn agentcore.StreamFn, model agentcore.Model, so agentcore.StreamOptions) *agentcore.AssistantMessage {
	t.Helper()
	var last *agentcore.AssistantMessage
	for ev := range fn(t.Context(), model, agentcore.Request{Messages: []agentcore.Message{agentcore.UserText("Hello")}}, so) {
		switch ev := ev.(type) {
		case *agentcore.DoneEvent:
			last = ev.Message
		case *agentcore.ErrorEvent:
			last = ev.Message
		}
	}
	require.NotNil(t, last, "no final event")
	return last
}

func TestStreamDispatchesOnTheAPI(t *testing.T) {
	seen := make(chan request, 1)
	oai, ant, goo := serve(t, openAIBody, seen), serve(t, anthropicBody, seen), serve(t, googleBody, seen)
	resp, az, vx, mi := serve(t, responsesBody, seen), serve(t, responsesBody, seen), serve(t, googleBody, seen), serve(t, mistralBody, seen)
	env := map[string]string{
		"OPENAI_API_KEY": "env-openai", "ANTHROPIC_API_KEY": "env-anthropic", "GEMINI_API_KEY": "env-gemini",
		"AZURE_OPENAI_API_KEY": "env-azure", "AZURE_OPENAI_BASE_URL": az.URL + "/openai/v1",
		"GOOGLE_CLOUD_API_KEY": "env-vertex", "MISTRAL_API_KEY": "env-mistral",
	}
	fn := StreamFn(Options{
		OpenAI:          openai.Options{BaseURL: oai.URL + "/v1"},
		OpenAIResponses: openairesponses.Options{BaseURL: resp.URL + "/v1"},
		Anthropic:       anthropic.Options{BaseURL: ant.URL},
		Google:          google.Options{BaseURL: goo.URL + "/v1beta"},
		Vertex:          vertex.Options{BaseURL: vx.URL},
		Mistral:         mistral.Options{BaseURL: mi.URL},
		Getenv:          func(k string) string { return env[k] },
	})
	for _, tc := range []struct {
		api, provider, path string
		key                 string // the request's key; empty reads the environment
		sent                string // the key the server saw
	}{
		{OpenAICompletions, "openai", "/v1/chat/completions", "", "Bearer env-openai"},
		{OpenAICompletions, "openai", "/v1/chat/completions", "sk-request", "Bearer sk-request"},
		{AnthropicMessages, "anthropic", "/v1/messages", "", "env-anthropic"},
		{GoogleGenerativeAI, "google", "/v1beta/models/m:streamGenerateContent", "", "env-gemini"},
		{GoogleGenerativeAI, "google", "/v1beta/models/m:streamGenerateContent", "gm-request", "gm-request"},
		{OpenAIResponses, "openai", "/v1/responses", "", "Bearer env-openai"},
		{OpenAIResponses, "openai", "/v1/responses", "sk-request", "Bearer sk-request"},
		{AzureOpenAIResponses, "azure", "/openai/v1/responses", "", "env-azure"},
		{GoogleVertex, "google-vertex", "/v1/publishers/google/models/m:streamGenerateContent", "", "env-vertex"},
		{MistralConversations, "mistral", "/v1/chat/completions", "", "Bearer env-mistral"},
	} {
		t.Run(tc.api+" "+tc.key, func(t *testing.T) {
			model := agentcore.Model{ID: "m", API: tc.api, Provider: tc.provider, MaxTokens: 100}
			m := final(t, fn, model, agentcore.StreamOptions{APIKey: tc.key})
			require.Equal(t, agentcore.StopStop, m.StopReason, m.ErrorMessage)
			assert.Equal(t, "Hi", m.Text())
			assert.Equal(t, tc.api, m.API)
			got := <-seen
			assert.Equal(t, tc.path, got.path)
			assert.Equal(t, tc.sent, got.key)
		})
	}
}

func TestUnknownAPI(t *testing.T) {
	model := agentcore.Model{ID: "m", API: "carrier-pigeon", Provider: "p"}
	var events []string
	var last *agentcore.AssistantMessage
	for ev := range StreamFn(Options{})(t.Context(), model, agentcore.Request{}, agentcore.StreamOptions{}) {
		events = append(events, ev.Type())
		if e, ok := ev.(*agentcore.ErrorEvent); ok {
			last = e.Message
		}
	}
	assert.Equal(t, []string{"error"}, events)
	require.NotNil(t, last)
	assert.Equal(t, agentcore.StopError, last.StopReason)
	assert.Equal(t, "No API provider registered for api: carrier-pigeon", last.ErrorMessage)
	assert.ErrorIs(t, last.Err, ErrUnknownAPI)
	assert.Equal(t, "carrier-pigeon", last.API)
	assert.Equal(t, "m", last.Model)

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for ev := range StreamFn(Options{})(ctx, model, agentcore.Request{}, agentcore.StreamOptions{}) {
		assert.Equal(t, agentcore.StopAborted, ev.(*agentcore.ErrorEvent).Message.StopReason, "a cancelled request is aborted")
	}
}

func TestRegister(t *testing.T) {
	r := New(Options{Getenv: func(k string) string { return map[string]string{"GEMINI_API_KEY": "env"}[k] }})
	assert.Equal(t, []string{AnthropicMessages, AzureOpenAIResponses, GoogleGenerativeAI, GoogleVertex, MistralConversations, OpenAICompletions, OpenAIResponses}, r.APIs())

	var got agentcore.StreamOptions
	mine := func(ctx context.Context, model agentcore.Model, req agentcore.Request, so agentcore.StreamOptions) agentcore.AssistantStream {
		got = so
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			w.Done(&agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "mine"}}, API: model.API, StopReason: agentcore.StopStop})
		})
	}
	r.Register("my-api", mine)
	m := final(t, r.Stream, agentcore.Model{ID: "x", API: "my-api", Provider: "google"}, agentcore.StreamOptions{})
	assert.Equal(t, "mine", m.Text())
	assert.Equal(t, "env", got.APIKey, "a registered API gets the environment's key too")

	r.Register(GoogleGenerativeAI, mine)
	m = final(t, r.Stream, agentcore.Model{ID: "x", API: GoogleGenerativeAI, Provider: "google"}, agentcore.StreamOptions{APIKey: "k"})
	assert.Equal(t, "mine", m.Text(), "a built-in API is replaced")
	assert.Equal(t, "k", got.APIKey)

	r.Register("my-api", nil)
	_, ok := r.Lookup("my-api")
	assert.False(t, ok)
	m = final(t, r.Stream, agentcore.Model{ID: "x", API: "my-api"}, agentcore.StreamOptions{})
	assert.True(t, errors.Is(m.Err, ErrUnknownAPI))
}

func TestNoEnvKeys(t *testing.T) {
	r := New(Options{NoEnvKeys: true, Getenv: func(string) string { return "env" }})
	var got agentcore.StreamOptions
	r.Register("a", func(ctx context.Context, model agentcore.Model, req agentcore.Request, so agentcore.StreamOptions) agentcore.AssistantStream {
		got = so
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			w.Done(&agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}, StopReason: agentcore.StopStop})
		})
	})
	final(t, r.Stream, agentcore.Model{API: "a", Provider: "google"}, agentcore.StreamOptions{})
	assert.Empty(t, got.APIKey)
}

func TestEnvAPIKey(t *testing.T) {
	env := map[string]string{"QWEN_TOKEN_PLAN_API_KEY": "shared", "GEMINI_API_KEY": "g"}
	getenv := func(k string) string { return env[k] }
	assert.Equal(t, "g", EnvAPIKey("google", getenv))
	assert.Equal(t, "shared", EnvAPIKey("qwen-token-plan", getenv), "the second variable when the first is empty")
	assert.Empty(t, EnvAPIKey("anthropic", getenv))
	assert.Empty(t, EnvAPIKey("no-such-provider", getenv))
	t.Setenv("GEMINI_API_KEY", "process")
	assert.Equal(t, "process", EnvAPIKey("google", nil))
}

func TestZeroRegistry(t *testing.T) {
	var r Registry
	assert.Empty(t, r.APIs())
	m := final(t, r.Stream, agentcore.Model{API: GoogleGenerativeAI}, agentcore.StreamOptions{})
	assert.ErrorIs(t, m.Err, ErrUnknownAPI)
	r.Register("a", func(ctx context.Context, model agentcore.Model, req agentcore.Request, so agentcore.StreamOptions) agentcore.AssistantStream {
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			w.Done(&agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}, StopReason: agentcore.StopStop})
		})
	})
	assert.Equal(t, []string{"a"}, r.APIs())
}
