package webchat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/examples/internal/modelflag"
	"github.com/pi-go/agentcore/providers"
)

// ConfigFrom is the page's model: the one env names (-model, CHAT_MODEL:
// see modelflag) behind the providers' dispatcher, else the fake one.
func ConfigFrom(env func(string) string, thinking agentcore.ThinkingLevel) (Config, error) {
	m, ok, err := modelflag.Lookup(env)
	switch {
	case err != nil:
		return Config{}, err
	case !ok:
		return Config{Model: agentcoretest.Model(), StreamFn: FakeModel(40 * time.Millisecond).Stream}, nil
	}
	c := Config{Model: m, StreamFn: providers.StreamFn(providers.Options{Getenv: env}), ThinkingLevel: thinking}
	if m.Provider == providers.LocalProvider {
		c.APIKey = env("OPENAI_API_KEY")
	}
	return c, nil
}

// Serve serves h on addr until ctx is done, then shuts the server down;
// once listening it prints "name: PROVIDER · MODEL on http://ADDR" to out.
func Serve(ctx context.Context, addr string, h http.Handler, out io.Writer, name string, model agentcore.Model) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		IdleTimeout:       2 * time.Minute,
	}
	fmt.Fprintf(out, "%s: %s · %s on http://%s\n", name, model.Provider, model.ID, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdown)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}
