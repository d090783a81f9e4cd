package providers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeServer serves the files of testdata/servers by method and path
// ("GET /props": "llamacpp-props.json"); anything else is a 404.
func fakeServer(t *testing.T, routes map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		file, ok := routes[r.Method+" "+r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if strings.HasPrefix(file, "{") {
			_, _ = w.Write([]byte(file))
			return
		}
		data, err := os.ReadFile("testdata/servers/" + file)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_, _ = w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestServerContextWindow: each server's own report, recorded from the
// real server (llama.cpp b11669) or its documentation (vLLM, Ollama).
func TestServerContextWindow(t *testing.T) {
	tests := []struct {
		name   string
		routes map[string]string
		id     string
		want   int
	}{
		{name: "llama.cpp /props", id: "tiny-chat", want: 8192,
			routes: map[string]string{"GET /v1/models": "llamacpp-models.json", "GET /props": "llamacpp-props.json"}},
		{name: "llama.cpp /props of an older server", id: "m", want: 4096,
			routes: map[string]string{"GET /props": `{"n_ctx":4096,"total_slots":1}`}},
		{name: "vLLM /v1/models", id: "meta-llama/Llama-3.1-8B-Instruct", want: 32768,
			routes: map[string]string{"GET /v1/models": "vllm-models.json"}},
		{name: "Ollama /api/show model_info", id: "llama3.2", want: 131072,
			routes: map[string]string{"POST /api/show": "ollama-show.json"}},
		{name: "Ollama /api/show num_ctx", id: "qwen3", want: 16384,
			routes: map[string]string{"POST /api/show": `{"parameters":"num_ctx                        16384\nstop \"x\"","model_info":{"general.architecture":"qwen3","qwen3.context_length":40960}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakeServer(t, tt.routes)
			n, err := ServerContextWindow(context.Background(), srv.URL+"/v1", tt.id, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, n)

			m, err := LookupModel(context.Background(), "local/"+tt.id, srv.URL+"/v1/")
			require.NoError(t, err)
			assert.Equal(t, tt.want, m.ContextWindow)
			assert.Equal(t, tt.id, m.ID)
		})
	}
}

// TestServerContextWindowNone: a server that reports nothing is a clear
// error naming what it answered; LookupModel still returns the model.
func TestServerContextWindowNone(t *testing.T) {
	tests := []struct {
		name   string
		routes map[string]string
		says   string
	}{
		{name: "404 everywhere", says: "status 404"},
		{name: "another model", routes: map[string]string{"GET /v1/models": "vllm-models.json"}, says: "the model is not listed"},
		{name: "not JSON", routes: map[string]string{"GET /props": "{oops"}, says: "not a JSON answer"},
		{name: "a negative window", routes: map[string]string{"GET /props": `{"default_generation_settings":{"n_ctx":-1}}`}, says: "not a positive integer"},
		{name: "a huge window", routes: map[string]string{"GET /props": `{"n_ctx":1e300}`}, says: "not a positive integer"},
		{name: "Ollama without an architecture", routes: map[string]string{"POST /api/show": `{"model_info":{}}`}, says: "general.architecture"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakeServer(t, tt.routes)
			_, err := ServerContextWindow(context.Background(), srv.URL+"/v1", "qwen3", nil)
			require.ErrorIs(t, err, ErrNoContextWindow)
			assert.Contains(t, err.Error(), tt.says)
			assert.Contains(t, err.Error(), "/props")

			m, err := LookupModel(context.Background(), "qwen3", srv.URL+"/v1")
			require.ErrorIs(t, err, ErrNoContextWindow)
			assert.Equal(t, "qwen3", m.ID, "the model is usable")
			assert.Equal(t, OpenAICompletions, m.API)
			assert.Zero(t, m.ContextWindow)
		})
	}
}

// TestServerContextWindowBounded: a response past MaxServerInfoBytes is
// not read whole, a hanging server ends with ctx, and a key is sent.
func TestServerContextWindowBounded(t *testing.T) {
	t.Run("too long", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(`{"n_ctx":8192,"pad":"`))
			chunk := []byte(strings.Repeat("x", 1<<16))
			for i := 0; i < MaxServerInfoBytes/len(chunk)+2; i++ {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
			_, _ = w.Write([]byte(`"}`))
		}))
		defer srv.Close()
		_, err := ServerContextWindow(context.Background(), srv.URL, "m", nil)
		require.ErrorIs(t, err, ErrNoContextWindow)
		assert.Contains(t, err.Error(), "response longer than")
	})
	t.Run("ctx", func(t *testing.T) {
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}))
		defer srv.Close()
		defer close(release)
		ctx, cancel := context.WithCancel(context.Background())
		go cancel()
		_, err := ServerContextWindow(ctx, srv.URL, "m", nil)
		require.ErrorIs(t, err, ErrNoContextWindow)
		require.ErrorIs(t, err, context.Canceled)
	})
	t.Run("key and a long ID", func(t *testing.T) {
		var auth string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			auth = r.Header.Get("Authorization")
			http.NotFound(w, r)
		}))
		defer srv.Close()
		_, err := ServerContextWindow(context.Background(), srv.URL, strings.Repeat("i", 1<<20), &ServerOptions{APIKey: "k"})
		require.ErrorIs(t, err, ErrNoContextWindow)
		assert.Equal(t, "Bearer k", auth)
		assert.Less(t, len(err.Error()), 2000, "the ID is cut")
	})
}

// TestServerContextWindowRealLlama asks a running llama-server, when
// LLAMA_SERVER_URL names one ("http://127.0.0.1:8089/v1") serving
// LLAMA_SERVER_MODEL with LLAMA_SERVER_CTX tokens (-c with -np 1).
func TestServerContextWindowRealLlama(t *testing.T) {
	url := os.Getenv("LLAMA_SERVER_URL")
	if url == "" {
		t.Skip("LLAMA_SERVER_URL not set")
	}
	defer http.DefaultClient.CloseIdleConnections()
	m, err := LookupModel(context.Background(), os.Getenv("LLAMA_SERVER_MODEL"), url)
	require.NoError(t, err)
	assert.Equal(t, os.Getenv("LLAMA_SERVER_CTX"), strconv.Itoa(m.ContextWindow))
}
