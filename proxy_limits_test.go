package agentcore_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// proxyEvents is the answer of a proxy server made of the given events,
// each a JSON object.
func proxyEvents(events ...string) string {
	var b strings.Builder
	for _, ev := range events {
		b.WriteString("data: " + ev + "\n\n")
	}
	return b.String()
}

// proxyOver returns StreamProxy with opts whose client answers every
// request with the body open makes, in memory.
func proxyOver(opts agentcore.ProxyOptions, open func(*http.Request) io.Reader) agentcore.StreamFn {
	opts.URL = "http://proxy.invalid"
	opts.Client = &http.Client{Transport: readerTransport(open)}
	return agentcore.StreamProxy(opts)
}

type readerTransport func(*http.Request) io.Reader

func (open readerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, r.Body)
	_ = r.Body.Close()
	return &http.Response{
		StatusCode: 200, Status: "200 OK", Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(open(r)), Request: r,
	}, nil
}

// repeatedEvent reads head, then event n times, then tail, holding each
// once: a long answer in little memory.
type repeatedEvent struct {
	head, event, tail []byte
	n                 int
	r                 bytes.Reader
}

func newRepeated(head, event, tail string, n int) *repeatedEvent {
	rp := &repeatedEvent{event: []byte(event), tail: []byte(tail), n: n}
	rp.r.Reset([]byte(head))
	return rp
}

func (rp *repeatedEvent) Read(p []byte) (int, error) {
	for rp.r.Len() == 0 {
		switch {
		case rp.n > 0:
			rp.n--
			rp.r.Reset(rp.event)
		case rp.tail != nil:
			rp.r.Reset(rp.tail)
			rp.tail = nil
		default:
			return 0, io.EOF
		}
	}
	return rp.r.Read(p)
}

// finalWithPeak ranges stream to its end and returns its final message, with the
// peak of the heap while it ran (sampled every 64 events).
func finalWithPeak(stream agentcore.AssistantStream) (final *agentcore.AssistantMessage, peak uint64) {
	runtime.GC()
	var ms runtime.MemStats
	n := 0
	for ev := range stream {
		if n++; n%64 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		switch e := ev.(type) {
		case *agentcore.DoneEvent:
			final = e.Message
		case *agentcore.ErrorEvent:
			final = e.Message
		}
	}
	runtime.ReadMemStats(&ms)
	return final, max(peak, ms.HeapAlloc)
}

// TestProxyMaxResponseBytes: a response building more content than
// MaxResponseBytes ends with the cap's error and the content that fit;
// one that fits, or any with no cap, is whole.
func TestProxyMaxResponseBytes(t *testing.T) {
	text := proxyEvents(`{"type":"start"}`, `{"type":"text_start","contentIndex":0}`,
		`{"type":"text_delta","contentIndex":0,"delta":"0123456789"}`,
		`{"type":"text_delta","contentIndex":0,"delta":"0123456789"}`,
		`{"type":"text_end","contentIndex":0,"contentSignature":"sig"}`,
		`{"type":"done","reason":"stop"}`)
	call := proxyEvents(`{"type":"start"}`, `{"type":"toolcall_start","contentIndex":0,"id":"c1","toolName":"echo"}`,
		`{"type":"toolcall_delta","contentIndex":0,"delta":"{\"a\":\"0123456789\"}"}`,
		`{"type":"toolcall_end","contentIndex":0,"toolCall":{"type":"toolCall","id":"c1","name":"echo","arguments":{"a":"0123456789"}}}`,
		`{"type":"done","reason":"toolUse"}`)
	tests := []struct {
		name  string
		body  string
		max   int64
		err   string // the final error; "" for none
		block string // the text of block 0 of the final message, for a text answer
	}{
		{name: "text within the cap", body: text, max: 100, block: "01234567890123456789"},
		{name: "text, no cap", body: text, max: -1, block: "01234567890123456789"},
		{name: "text, default cap", body: text, block: "01234567890123456789"},
		// The block counts for 64 bytes, its text 10 and 10, its signature 3.
		{name: "text past the cap", body: text, max: 80, err: "Response too large: more than 80 bytes of content", block: "0123456789"},
		{name: "signature past the cap", body: text, max: 85, err: "Response too large: more than 85 bytes of content", block: "01234567890123456789"},
		{name: "a block past the cap", body: text, max: 63, err: "Response too large: more than 63 bytes of content"},
		// The call counts for 64 bytes, its ID and name 6, its arguments 18,
		// and the server's call at its end what it adds to them (50).
		{name: "tool call within the cap", body: call, max: 138},
		{name: "arguments past the cap", body: call, max: 87, err: "Response too large: more than 87 bytes of content"},
		{name: "the server's call past the cap", body: call, max: 137, err: "Response too large: more than 137 bytes of content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn := proxyOver(agentcore.ProxyOptions{MaxResponseBytes: tt.max}, func(*http.Request) io.Reader { return strings.NewReader(tt.body) })
			final := collect(fn(t.Context(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{})).final
			require.NotNil(t, final)
			if tt.err == "" {
				assert.Empty(t, final.ErrorMessage)
				assert.NotEqual(t, agentcore.StopError, final.StopReason)
			} else {
				assert.Equal(t, agentcore.StopError, final.StopReason)
				assert.Equal(t, tt.err, final.ErrorMessage)
				assert.ErrorIs(t, final.Err, agentcore.ErrResponseTooLarge)
				assert.False(t, agentcore.IsRetryable(final.Err))
			}
			if tt.block != "" {
				require.NotEmpty(t, final.Content)
				assert.Equal(t, tt.block, final.Content[0].(agentcore.TextBlock).Text)
			}
		})
	}
}

// TestProxyResponseCapHeap: a 200 MB answer of text deltas, and one of a
// million empty blocks, end at the default cap with the heap far below
// the answer's size.
func TestProxyResponseCapHeap(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("streams 200 MB")
	}
	head := proxyEvents(`{"type":"start"}`, `{"type":"text_start","contentIndex":0}`)
	tests := []struct {
		name  string
		event string
		n     int
	}{
		{name: "200 MB of text", event: proxyEvents(`{"type":"text_delta","contentIndex":0,"delta":"` + strings.Repeat("x", 1<<10) + `"}`), n: 200 << 10},
		{name: "1M empty blocks", event: proxyEvents(`{"type":"text_start","contentIndex":1}`), n: 1 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := func(*http.Request) io.Reader {
				if tt.name == "1M empty blocks" {
					return &growingBlocks{n: tt.n}
				}
				return newRepeated(head, tt.event, proxyEvents(`{"type":"done","reason":"stop"}`), tt.n)
			}
			fn := proxyOver(agentcore.ProxyOptions{}, next)
			final, peak := finalWithPeak(fn(t.Context(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}))
			t.Logf("%s: peak heap %d MB", tt.name, peak>>20)
			require.NotNil(t, final)
			assert.Equal(t, agentcore.StopError, final.StopReason)
			assert.ErrorIs(t, final.Err, agentcore.ErrResponseTooLarge)
			assert.Less(t, peak, uint64(100<<20), "peak heap")
		})
	}
}

// growingBlocks reads a start, then n empty text blocks, each at the next
// content index, then done.
type growingBlocks struct {
	i, n int
	r    strings.Reader
}

func (g *growingBlocks) Read(p []byte) (int, error) {
	for g.r.Len() == 0 {
		switch {
		case g.i == 0:
			g.r.Reset(proxyEvents(`{"type":"start"}`))
		case g.i <= g.n:
			g.r.Reset(proxyEvents(fmt.Sprintf(`{"type":"text_start","contentIndex":%d}`, g.i-1)))
		case g.i == g.n+1:
			g.r.Reset(proxyEvents(`{"type":"done","reason":"stop"}`))
		default:
			return 0, io.EOF
		}
		g.i++
	}
	return g.r.Read(p)
}

// TestProxyNestedArrays: tool arguments of 8 MiB of nested "[" stream in
// bounded memory (the preview's parser bounds its nesting).
func TestProxyNestedArrays(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("streams 8 MiB of nesting")
	}
	head := proxyEvents(`{"type":"start"}`, `{"type":"toolcall_start","contentIndex":0,"id":"c1","toolName":"echo"}`,
		`{"type":"toolcall_delta","contentIndex":0,"delta":"{\"a\":"}`)
	event := proxyEvents(`{"type":"toolcall_delta","contentIndex":0,"delta":"` + strings.Repeat("[", 1<<10) + `"}`)
	fn := proxyOver(agentcore.ProxyOptions{}, func(*http.Request) io.Reader {
		return newRepeated(head, event, proxyEvents(`{"type":"done","reason":"toolUse"}`), 8<<10)
	})
	final, peak := finalWithPeak(fn(t.Context(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}))
	t.Logf("8 MiB of nested arrays: peak heap %d MB", peak>>20)
	require.NotNil(t, final)
	require.Len(t, final.ToolCalls(), 1)
	assert.NotEmpty(t, final.ToolCalls()[0].ArgumentsError, "the arguments never closed")
	assert.Less(t, peak, uint64(100<<20), "peak heap")
}

// stallTransport answers after headers and head, or stalls: before the
// headers when early, else after head, until the request ends.
type stallTransport struct {
	early bool
	head  string
}

func (s stallTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, r.Body)
	_ = r.Body.Close()
	if s.early {
		<-r.Context().Done()
		return nil, r.Context().Err()
	}
	return &http.Response{
		StatusCode: 200, Status: "200 OK", Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(&stallBody{head: strings.NewReader(s.head), ctx: r.Context()}), Request: r,
	}, nil
}

// stallBody reads head, then waits for ctx to end.
type stallBody struct {
	head *strings.Reader
	ctx  context.Context
}

func (b *stallBody) Read(p []byte) (int, error) {
	if b.head.Len() > 0 {
		return b.head.Read(p)
	}
	<-b.ctx.Done()
	return 0, b.ctx.Err()
}

// TestProxyIdleTimeout: a server that stalls before its headers, after
// them, or after the start of the answer ends the response at the idle
// timeout (the default's or the option's), the content so far kept; a
// negative timeout leaves it to ctx; a consumer slow between events does
// not count.
func TestProxyIdleTimeout(t *testing.T) {
	started := proxyEvents(`{"type":"start"}`, `{"type":"text_start","contentIndex":0}`, `{"type":"text_delta","contentIndex":0,"delta":"Hello"}`)
	stalls := []struct {
		name string
		tr   stallTransport
		text string // the text the message keeps
	}{
		{name: "before the headers", tr: stallTransport{early: true}},
		{name: "after the headers", tr: stallTransport{}},
		{name: "after the start", tr: stallTransport{head: started}, text: "Hello"},
	}
	timeouts := []struct {
		name    string
		timeout time.Duration
		want    time.Duration
	}{
		{name: "default", want: agentcore.DefaultStreamIdleTimeout},
		{name: "option", timeout: time.Minute, want: time.Minute},
	}
	for _, stall := range stalls {
		for _, tt := range timeouts {
			t.Run(stall.name+"/"+tt.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: "http://proxy.invalid", IdleTimeout: tt.timeout, Client: &http.Client{Transport: stall.tr}})
					start := time.Now()
					final := collect(fn(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{})).final
					require.NotNil(t, final)
					assert.Equal(t, tt.want, time.Since(start))
					assert.Equal(t, agentcore.StopError, final.StopReason)
					assert.ErrorIs(t, final.Err, agentcore.ErrStreamIdleTimeout)
					assert.Equal(t, "Stream idle timeout: no data from the server for "+tt.want.String(), final.ErrorMessage)
					assert.True(t, agentcore.IsRetryable(final.Err))
					assert.Equal(t, stall.text, final.Text())
				})
			})
		}
		t.Run(stall.name+"/no timeout", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
				defer cancel()
				fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: "http://proxy.invalid", IdleTimeout: -1, Client: &http.Client{Transport: stall.tr}})
				start := time.Now()
				final := collect(fn(ctx, fixtureModel, agentcore.Request{}, agentcore.StreamOptions{})).final
				require.NotNil(t, final)
				assert.Equal(t, time.Hour, time.Since(start))
				assert.Equal(t, agentcore.StopAborted, final.StopReason, "only ctx ends it")
			})
		})
	}
	t.Run("a slow consumer", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			body := started + proxyEvents(`{"type":"text_end","contentIndex":0}`, `{"type":"done","reason":"stop"}`)
			fn := proxyOver(agentcore.ProxyOptions{IdleTimeout: time.Minute}, func(*http.Request) io.Reader { return strings.NewReader(body) })
			var final *agentcore.AssistantMessage
			for ev := range fn(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}) {
				time.Sleep(time.Hour)
				if e, ok := ev.(*agentcore.DoneEvent); ok {
					final = e.Message
				}
			}
			require.NotNil(t, final, "the response failed")
			assert.Equal(t, "Hello", final.Text())
		})
	})
}

// TestProxyQuotedTextCut: the error text of a refusal quotes at most
// 4000 characters of the server's, and an error event's text is cut as a
// provider's failure is.
func TestProxyQuotedTextCut(t *testing.T) {
	long := strings.Repeat("e", 200<<10)
	t.Run("refusal", func(t *testing.T) {
		srv := newSSEServer(t, http.StatusBadRequest, `{"error":"`+long+`"}`)
		final := collect(agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL})(t.Context(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{})).final
		require.NotNil(t, final)
		want := "Proxy error: " + strings.Repeat("e", 4000) + fmt.Sprintf("... [truncated %d chars]", len(long)-4000)
		assert.Equal(t, want, final.ErrorMessage)
	})
	t.Run("error event", func(t *testing.T) {
		srv := newSSEServer(t, http.StatusOK, proxyEvents(`{"type":"start"}`, `{"type":"error","reason":"error","errorMessage":"`+long+`"}`))
		final := collect(agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL})(t.Context(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{})).final
		require.NotNil(t, final)
		want := strings.Repeat("e", 16000) + fmt.Sprintf("... [truncated %d chars]", len(long)-16000)
		assert.Equal(t, want, final.ErrorMessage)
		assert.Equal(t, want, final.Err.Error())
	})
}

// TestProxyUsageClamped: the usage of a done or error event is clamped as
// a provider's is: counts to 0…math.MaxInt64, costs to 0 and above.
func TestProxyUsageClamped(t *testing.T) {
	tests := []struct {
		name  string
		usage string
		want  agentcore.Usage
	}{
		{
			name:  "as sent",
			usage: `{"input":10,"output":5,"cacheRead":2,"cacheWrite":1,"cacheWrite1h":1,"reasoning":3,"totalTokens":18,"cost":{"input":0.1,"output":0.2,"cacheRead":0.01,"cacheWrite":0.02,"total":0.33,"totalFromProvider":true}}`,
			want: agentcore.Usage{Input: 10, Output: 5, CacheRead: 2, CacheWrite: 1, CacheWrite1h: new(int64(1)), Reasoning: new(int64(3)), TotalTokens: 18,
				Cost: agentcore.Cost{Input: 0.1, Output: 0.2, CacheRead: 0.01, CacheWrite: 0.02, Total: 0.33, TotalFromProvider: new(true)}},
		},
		{
			name:  "out of range",
			usage: `{"input":-5,"output":1e300,"cacheRead":7.9,"cacheWrite":-1e300,"cacheWrite1h":-1,"reasoning":1e30,"totalTokens":-9223372036854775808,"cost":{"input":-1e308,"output":1e308,"cacheRead":-0.5,"cacheWrite":0,"total":-1e308}}`,
			want: agentcore.Usage{Input: 0, Output: math.MaxInt64, CacheRead: 7, CacheWrite: 0, CacheWrite1h: new(int64(0)), Reasoning: new(int64(math.MaxInt64)), TotalTokens: 0,
				Cost: agentcore.Cost{Output: 1e308}},
		},
	}
	for _, tt := range tests {
		for _, end := range []string{`"type":"done","reason":"stop"`, `"type":"error","reason":"error","errorMessage":"x"`} {
			t.Run(tt.name+"/"+end[8:13], func(t *testing.T) {
				srv := newSSEServer(t, http.StatusOK, proxyEvents(`{"type":"start"}`, `{`+end+`,"usage":`+tt.usage+`}`))
				final := collect(agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL})(t.Context(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{})).final
				require.NotNil(t, final)
				assert.NotContains(t, final.ErrorMessage, "Invalid proxy event")
				assert.Equal(t, tt.want, final.Usage)
			})
		}
	}
}
