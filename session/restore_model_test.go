package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/models"
	"github.com/pi-go/agentcore/providers"
	"github.com/pi-go/agentcore/providers/openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// onlyHosts is a transport that sends requests to the hosts it allows and
// records every host asked for.
type onlyHosts struct {
	allow string
	mu    sync.Mutex
	asked []string
}

func (o *onlyHosts) RoundTrip(r *http.Request) (*http.Response, error) {
	o.mu.Lock()
	o.asked = append(o.asked, r.URL.Host)
	o.mu.Unlock()
	if r.URL.Host != o.allow {
		return nil, errors.New("test transport: refused host " + r.URL.Host)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestRestoreKeepsProgramModel: a session recorded against a gateway
// resumes against it: the catalog fills the context window the program
// left out, and the base URL, headers and compat settings the program
// gave reach the server; api.openai.com is never asked.
func TestRestoreKeepsProgramModel(t *testing.T) {
	var gotHeader, gotPath string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotHeader, gotPath = r.Header.Get("X-Gateway-Key"), r.URL.Path
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"1","choices":[{"index":0,"delta":{"content":"resumed"},"finish_reason":"stop"}]}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	transport := &onlyHosts{allow: u.Host}

	s, err := Create(t.TempDir(), "/w", &Options{Now: clock()})
	require.NoError(t, err)
	defer s.Close()
	_, err = s.Append(&ModelChange{Provider: "openai", ModelID: "gpt-4o-mini"})
	require.NoError(t, err)
	_, err = s.AppendMessage(agentcore.UserText("hello"))
	require.NoError(t, err)

	catalog, ok := models.Lookup("openai", "gpt-4o-mini")
	require.True(t, ok)
	require.NotZero(t, catalog.ContextWindow)
	gateway := agentcore.Model{
		ID: "gpt-4o-mini", Provider: "openai", API: providers.OpenAICompletions,
		BaseURL: srv.URL + "/v1", Headers: map[string]string{"X-Gateway-Key": "g1"},
		Compat: json.RawMessage(`{"supportsStore":false}`),
	}
	opts := s.Restore(agentcore.Options{
		Model: gateway,
		StreamFn: providers.StreamFn(providers.Options{NoEnvKeys: true,
			OpenAI: openai.Options{HTTPClient: &http.Client{Transport: transport}}}),
	}, models.Lookup)

	assert.Equal(t, srv.URL+"/v1", opts.Model.BaseURL)
	assert.Equal(t, map[string]string{"X-Gateway-Key": "g1"}, opts.Model.Headers)
	assert.JSONEq(t, `{"supportsStore":false}`, string(opts.Model.Compat))
	assert.Equal(t, providers.OpenAICompletions, opts.Model.API)
	assert.Equal(t, catalog.ContextWindow, opts.Model.ContextWindow, "filled from the catalog")
	assert.Equal(t, catalog.Cost, opts.Model.Cost, "filled from the catalog")

	agent := agentcore.New(opts)
	require.NoError(t, agent.Prompt(context.Background(), "again"))
	require.Empty(t, agent.State().ErrorMessage)
	assert.Equal(t, "g1", gotHeader)
	assert.Equal(t, "/v1/chat/completions", gotPath)
	assert.Equal(t, []string{u.Host}, transport.asked, "api.openai.com is never the target")
	assert.Len(t, s.Context().Messages, 3)
}

// TestRestoreModelChoice: which model a restored Agent runs on.
func TestRestoreModelChoice(t *testing.T) {
	catalog := agentcore.Model{ID: "m", Provider: "p", Name: "M", API: "a", BaseURL: "https://public", ContextWindow: 100,
		Headers: map[string]string{"H": "catalog"}, Reasoning: true}
	lookup := func(p, id string) (agentcore.Model, bool) {
		if p == "p" && id == "m" {
			return catalog, true
		}
		return agentcore.Model{}, false
	}
	for _, tc := range []struct {
		name     string
		given    agentcore.Model
		recorded *ModelRef
		lookup   func(string, string) (agentcore.Model, bool)
		want     agentcore.Model
	}{
		{name: "none given: the session's", recorded: &ModelRef{Provider: "p", ModelID: "m"}, lookup: lookup, want: catalog},
		{name: "none given, none recorded", lookup: lookup},
		{name: "none given, unknown recorded", recorded: &ModelRef{Provider: "p", ModelID: "x"}, lookup: lookup},
		{name: "given kept without lookup", given: agentcore.Model{ID: "m", Provider: "p"}, recorded: &ModelRef{Provider: "p", ModelID: "m"},
			want: agentcore.Model{ID: "m", Provider: "p"}},
		{name: "given filled, base URL and headers kept", given: agentcore.Model{ID: "m", Provider: "p", BaseURL: "http://gw", Headers: map[string]string{"H": "mine"}},
			recorded: &ModelRef{Provider: "p", ModelID: "m"}, lookup: lookup,
			want: agentcore.Model{ID: "m", Provider: "p", Name: "M", API: "a", BaseURL: "http://gw", ContextWindow: 100, Headers: map[string]string{"H": "mine"}, Reasoning: true}},
		{name: "given differs from the session's: the program's", given: agentcore.Model{ID: "other", Provider: "p", BaseURL: "http://gw"},
			recorded: &ModelRef{Provider: "p", ModelID: "m"}, lookup: lookup, want: agentcore.Model{ID: "other", Provider: "p", BaseURL: "http://gw"}},
		{name: "given with a window keeps it", given: agentcore.Model{ID: "m", Provider: "p", ContextWindow: 7, BaseURL: "http://gw"}, lookup: lookup,
			want: agentcore.Model{ID: "m", Provider: "p", Name: "M", API: "a", BaseURL: "http://gw", ContextWindow: 7, Headers: map[string]string{"H": "catalog"}, Reasoning: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, restoreModel(tc.given, tc.recorded, tc.lookup))
		})
	}
}
