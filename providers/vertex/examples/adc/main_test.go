package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"golang.org/x/oauth2"

	"github.com/pi-go/agentcore/providers/vertex"
)

// TestAsk runs the example against a stand-in for Vertex AI with a
// static token source in place of Application Default Credentials: the
// token reaches the server as a bearer, and the answer comes back. No
// request leaves the machine.
func TestAsk(t *testing.T) {
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"candidates":[{"content":{"parts":[{"text":"Rayleigh scattering."}],"role":"model"},"finishReason":"STOP","index":0}]}`+"\n\n")
	}))
	defer srv.Close()
	ts := oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "ya29.test"})
	opts := vertex.Options{BaseURL: srv.URL, Project: "p", Location: "us-central1", Token: Token(ts), Getenv: func(string) string { return "" }}
	answer, err := ask(t.Context(), opts, "Why is the sky blue?")
	if err != nil {
		t.Fatal(err)
	}
	if answer != "Rayleigh scattering." || auth != "Bearer ya29.test" {
		t.Fatalf("answer %q, authorization %q", answer, auth)
	}
}
