package agentcore_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// NewProxyHandler serves any stream function in the wire format of pi's
// streamProxy, so that the provider keys stay on the server: Authorize
// admits the clients, Prepare applies the server's policy (here the model
// is always the server's own).
func ExampleNewProxyHandler() {
	upstream := agentcoretest.New(agentcoretest.TextResponse("Served by the proxy."))
	handler := agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{
		StreamFn: upstream.Stream,
		Authorize: func(_ *http.Request, token string) error {
			if token != "client-token" {
				return errors.New("unknown client")
			}
			return nil
		},
		Prepare: func(_ *http.Request, call *agentcore.ProxyCall) error {
			call.Model = agentcoretest.Model() // never the client's
			return nil
		},
	})
	server := httptest.NewServer(handler)
	defer server.Close()

	for _, token := range []string{"client-token", "stolen"} {
		agent := agentcore.New(agentcore.Options{
			Model:    agentcore.Model{ID: "any"},
			StreamFn: agentcore.StreamProxy(agentcore.ProxyOptions{URL: server.URL, AuthToken: token}),
		})
		err := agent.Prompt(context.Background(), "Hello?")
		msgs := agent.Messages()
		last := msgs[len(msgs)-1].(*agentcore.AssistantMessage)
		fmt.Printf("%s: %q %v\n", token, last.Text(), err)
	}
	// Output:
	// client-token: "Served by the proxy." <nil>
	// stolen: "" agentcore: run failed: Proxy error: unknown client
}

// StreamProxy is a StreamFn that asks a proxy server for each response: an
// Agent in a browser-facing service, say, whose provider keys live
// elsewhere. A refusal or a dropped connection is a failed response, as a
// provider's failure is.
func ExampleStreamProxy() {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		// A proxy that dies after the first event.
		fmt.Fprint(w, "data: {\"type\":\"start\"}\n\n")
	}))
	defer server.Close()

	agent := agentcore.New(agentcore.Options{
		Model:    agentcoretest.Model(),
		StreamFn: agentcore.StreamProxy(agentcore.ProxyOptions{URL: server.URL, AuthToken: "t"}),
	})
	err := agent.Prompt(context.Background(), "Hello?")
	fmt.Println(err)
	fmt.Println("retryable:", agentcore.IsRetryable(err))
	// Output:
	// agentcore: run failed: Connection closed by proxy server before the response completed
	// retryable: true
}
