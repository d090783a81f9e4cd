// Command proxy runs a model proxy and an agent that streams through it, in
// one program on 127.0.0.1 (a random port, no other network). The server
// holds the provider key and serves the fake model with
// agentcore.ProxyHandler; the client knows only its proxy token and uses
// agentcore.StreamProxy as its stream function, the way a browser or a
// remote agent would use pi's proxy. The program prints the client's event
// log, then shows a request with a wrong token being refused.
//
//	go run ./examples/proxy
package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/examples/internal/eventlog"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "proxy:", err)
		os.Exit(1)
	}
}

// inventory is what the lookup tool reads.
var inventory = map[string]int{"widgets": 42, "gadgets": 7}

type lookupArgs struct {
	Item string `json:"item" jsonschema:"required,description=the item to count"`
}

func lookupTool() agentcore.Tool {
	return agentcore.NewTool("lookup", "Count an item in the inventory.",
		func(_ context.Context, _ string, args lookupArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			n, ok := inventory[args.Item]
			if !ok {
				return agentcore.ToolResult{}, fmt.Errorf("unknown item %q", args.Item)
			}
			return agentcore.TextResult(fmt.Sprintf("%d %s", n, args.Item)), nil
		})
}

// script is what the server's fake model answers.
func script() []agentcoretest.Response {
	usage := agentcore.Usage{Input: 120, Output: 30, TotalTokens: 150}
	return []agentcoretest.Response{
		{Content: []agentcore.ContentBlock{
			agentcore.TextBlock{Text: "Let me check the inventory."},
			agentcoretest.ToolCall("c1", "lookup", map[string]string{"item": "widgets"}),
			agentcoretest.ToolCall("c2", "lookup", map[string]string{"item": "gadgets"}),
		}, StopReason: agentcore.StopToolUse, Chunks: 3, Usage: usage},
		{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "You have 42 widgets and 7 gadgets in stock."}}, Chunks: 4, Usage: usage},
	}
}

// secret returns prefix and a random token.
func secret(prefix string) string { return prefix + rand.Text() }

// server is the proxy: it admits clients with token and calls the model
// with providerKey, which never leaves it.
func server(token, providerKey string) http.Handler {
	models := map[string]agentcore.Model{agentcoretest.Model().ID: agentcoretest.Model()}
	fake := agentcoretest.New(script()...)
	// The "provider": it refuses a request without the right key, as a
	// real one would.
	model := func(ctx context.Context, m agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
		if opts.APIKey != providerKey {
			return agentcoretest.New(agentcoretest.ErrorResponse("401: invalid API key")).Stream(ctx, m, req, opts)
		}
		return fake.Stream(ctx, m, req, opts)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /api/stream", agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{
		StreamFn: model,
		// A client that stops reading for this long is cut off and the
		// model call cancelled.
		WriteIdleTimeout: 30 * time.Second,
		// What clients are not told (a panic's detail) goes to the log.
		OnError: func(r *http.Request, err error) { log.Printf("proxy %s: %v", r.RemoteAddr, err) },
		Authorize: func(_ *http.Request, got string) error {
			if subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
				return errors.New("invalid proxy token")
			}
			return nil
		},
		// The policy: only the server's own models (a client's model could
		// carry a base URL that would take the key elsewhere), no client
		// headers, a cap on output, and the key added here.
		Prepare: func(_ *http.Request, call *agentcore.ProxyCall) error {
			m, ok := models[call.Model.ID]
			if !ok {
				return fmt.Errorf("model %q is not served here", call.Model.ID)
			}
			call.Model = m
			call.Options.Headers = nil
			call.Options.MaxTokens = min(max(call.Options.MaxTokens, 1), 4096)
			call.Options.APIKey = providerKey
			return nil
		},
	}))
	return mux
}

// newHTTPServer returns the HTTP server for the proxy handler h, with the
// timeouts a proxy needs: the request's headers and body must arrive in
// time (else a client that sends slowly or stalls halfway holds a handler
// forever); the answer has no overall WriteTimeout, which would cut long
// streams, since the handler bounds each write (WriteIdleTimeout).
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second, // headers and body; cleared once the body is read
		IdleTimeout:       2 * time.Minute,
	}
}

func run(ctx context.Context, w io.Writer) error {
	token, providerKey := secret("proxy-"), secret("sk-")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := newHTTPServer(server(token, providerKey))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		<-served
	}()
	url := "http://" + ln.Addr().String()
	fmt.Fprintln(w, "proxy listening on 127.0.0.1 (random port)")

	// The client: no provider key, only the proxy's address and token.
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport}
	agent := agentcore.New(agentcore.Options{
		SystemPrompt: "You keep the inventory.",
		Model:        agentcoretest.Model(),
		Tools:        []agentcore.Tool{lookupTool()},
		StreamFn:     agentcore.StreamProxy(agentcore.ProxyOptions{URL: url, AuthToken: token, Client: client}),
	})
	// The log shows each event as a line (examples/internal/eventlog), with
	// the token counts the server reports and the tool arguments as they
	// stream through the proxy.
	agent.Subscribe(eventlog.Log{W: w, Usage: true, ToolArguments: true}.Event)
	if err := agent.Prompt(ctx, "How many widgets and gadgets do we have?"); err != nil {
		return err
	}
	if msg := agent.State().ErrorMessage; msg != "" {
		return fmt.Errorf("the run failed: %s", msg)
	}

	// A client with a wrong token is refused before any model call.
	intruder := agentcore.StreamProxy(agentcore.ProxyOptions{URL: url, AuthToken: "guess", Client: client})
	for ev := range intruder(ctx, agentcoretest.Model(), agentcore.Request{Messages: []agentcore.Message{agentcore.UserText("hi")}}, agentcore.StreamOptions{}) {
		if e, ok := ev.(*agentcore.ErrorEvent); ok {
			fmt.Fprintf(w, "wrong token: [%s] %s\n", e.Message.StopReason, e.Message.ErrorMessage)
		}
	}
	return nil
}
