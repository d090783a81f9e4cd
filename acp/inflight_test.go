package acp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
)

// The client's requests in progress take at most MaxInFlightBytes: one
// more is refused at once, and served again once some are answered.
func TestInFlightBytesAreBounded(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	srv := acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(agentcoretest.New()),
		MaxMessageBytes: 1 << 20, MaxInFlightBytes: 100 << 10,
		AuthMethods: []acp.AuthMethod{{ID: "wait", Name: "Wait"}},
		Authenticate: func(ctx context.Context, _ string) error {
			select {
			case entered <- struct{}{}:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return nil
		}})
	c := serve(t, srv, nil)
	c.initialize(nil)
	big := map[string]any{"methodId": "wait", "padding": strings.Repeat("x", 40<<10)}
	var held []chan message
	for range 2 { // 80 KiB in progress
		held = append(held, c.start("authenticate", big))
		select {
		case <-entered:
		case <-time.After(waitLong):
			t.Fatal("authenticate was not served")
		}
	}
	e := c.callErr("authenticate", big) // 120 KiB: refused
	assert.Equal(t, acp.CodeInternalError, e.Code)
	assert.Contains(t, e.Message, "too large")
	// A small request still fits.
	e = c.callErr("session/load", map[string]any{"sessionId": "x", "cwd": "/", "mcpServers": []any{}})
	assert.NotContains(t, e.Message, "too large")

	close(release)
	for _, ch := range held {
		require.Nil(t, c.wait(ch).Error)
	}
	// Once answered, they take nothing: a request as large passes again.
	next := c.start("authenticate", big)
	select {
	case <-entered:
	case <-time.After(waitLong):
		t.Fatal("authenticate was not served")
	}
	require.Nil(t, c.wait(next).Error)

	// One request larger than the bound alone is served.
	alone := map[string]any{"methodId": "wait", "padding": strings.Repeat("x", 200<<10)}
	next = c.start("authenticate", alone)
	select {
	case <-entered:
	case <-time.After(waitLong):
		t.Fatal("authenticate was not served")
	}
	require.Nil(t, c.wait(next).Error)
}
