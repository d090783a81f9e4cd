// Command traced is examples/webchat with OpenTelemetry: the chat page
// over AG-UI, its agent on a model from pi-ai's catalog with two server
// tools and compaction, and every request, run, model call and tool call
// recorded as spans. It is a module of its own because it imports the
// otel module; the root module's dependencies stay the core's.
//
// On the built-in fake model (no key, no network), from the repository's
// root:
//
//	go run ./examples/webchat/traced
//
// then open http://127.0.0.1:8080; the spans are printed to standard
// error as JSON (-trace FILE writes them to a file). On a real model:
//
//	ANTHROPIC_API_KEY=... go run ./examples/webchat/traced -model anthropic/claude-sonnet-4-5
//	go run ./examples/webchat/traced -model ollama/qwen3 -base-url http://localhost:11434/v1
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"

	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/examples/internal/modelflag"
	"github.com/pi-go/agentcore/examples/webchat/internal/webchat"
	agentotel "github.com/pi-go/agentcore/otel"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "traced:", err)
		os.Exit(1)
	}
}

// run parses the flags and serves until ctx is done, writing spans to
// stderr unless -trace names a file.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("traced", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	thinking := fs.String("thinking", "", "thinking level: minimal, low, medium, high (default off)")
	tracePath := fs.String("trace", "", "write the spans to this file (default: standard error)")
	flags := modelflag.Register(fs, "go run ./examples/webchat/traced [-model PROVIDER/ID] [-base-url URL] [-addr HOST:PORT] [-trace FILE]",
		"  Without a model named, the page runs the built-in fake model.\n")
	if help, err := modelflag.Parse(fs, args); help || err != nil {
		return cmp.Or(err, flag.ErrHelp)
	}
	out := stderr
	if *tracePath != "" {
		f, err := os.Create(*tracePath)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	exporter, err := stdouttrace.New(stdouttrace.WithWriter(out))
	if err != nil {
		return err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter))
	defer tp.Shutdown(context.Background())

	cfg, err := webchat.ConfigFrom(flags.Getenv(os.Getenv), agentcore.ThinkingLevel(*thinking))
	if err != nil {
		return err
	}
	return webchat.Serve(ctx, *addr, Handler(cfg, tp), os.Stdout, "traced webchat", cfg.Model)
}

// Handler is the page of examples/webchat with each thread's Agent traced
// by an Instrumentation on tp, and each request a server span that the
// Agent's runs are children of.
func Handler(cfg webchat.Config, tp trace.TracerProvider) http.Handler {
	inst := agentotel.New(agentotel.Config{TracerProvider: tp, AgentName: "webchat"})
	cfg.Layers = func() []agentcore.Layer { return []agentcore.Layer{inst} }
	return serverSpans(tp.Tracer("webchat"), webchat.New(cfg))
}

// serverSpans starts a server span per request, as an HTTP
// instrumentation (otelhttp) would, and serves the request under it.
func serverSpans(tracer trace.Tracer, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, span := tracer.Start(r.Context(), r.Method+" "+r.URL.Path, trace.WithSpanKind(trace.SpanKindServer))
		defer span.End()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
