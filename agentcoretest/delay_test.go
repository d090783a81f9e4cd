package agentcoretest_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// event is an event of a stream and when it came, from the stream's start.
type event struct {
	typ  string
	at   time.Duration
	text string // the partial's text
}

// timeline ranges a stream, noting when each event came.
func timeline(s agentcore.AssistantStream) []event {
	start := time.Now()
	var out []event
	for ev := range s {
		e := event{typ: ev.Type(), at: time.Since(start)}
		switch ev := ev.(type) {
		case *agentcore.TextDeltaEvent:
			e.text = ev.Partial.Text()
		case *agentcore.ErrorEvent:
			e.text = ev.Message.ErrorMessage
		}
		out = append(out, e)
	}
	return out
}

// TestFakeDelays plays delays and hangs in synctest bubbles, where they
// take virtual time: each content event comes ChunkDelay after the last.
func TestFakeDelays(t *testing.T) {
	chunked := agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "abcd"}}, Chunks: 2, ChunkDelay: time.Second}
	hanging := agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "ab"}}, Hang: true}
	tests := []struct {
		name    string
		resp    agentcoretest.Response
		timeout time.Duration // zero: none
		want    []event
	}{
		{name: "a delay before every content event", resp: chunked, want: []event{
			{"start", 0, ""}, {"text_start", 1 * time.Second, ""},
			{"text_delta", 2 * time.Second, "ab"}, {"text_delta", 3 * time.Second, "abcd"},
			{"text_end", 4 * time.Second, ""}, {"done", 4 * time.Second, ""},
		}},
		{name: "abort during a delay", resp: chunked, timeout: 2500 * time.Millisecond, want: []event{
			{"start", 0, ""}, {"text_start", 1 * time.Second, ""}, {"text_delta", 2 * time.Second, "ab"},
			{"error", 2500 * time.Millisecond, agentcoretest.AbortedText},
		}},
		{name: "a hang ends with the abort", resp: hanging, timeout: time.Minute, want: []event{
			{"start", 0, ""}, {"text_start", 0, ""}, {"text_delta", 0, "ab"}, {"text_end", 0, ""},
			{"error", time.Minute, agentcoretest.AbortedText},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx := t.Context()
				if tt.timeout > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tt.timeout)
					defer cancel()
				}
				fake := agentcoretest.New(tt.resp)
				got := timeline(fake.Stream(ctx, agentcoretest.Model(), agentcore.Request{}, agentcore.StreamOptions{}))
				assert.Equal(t, tt.want, got)
			})
		})
	}
}

// TestFakeAbortFromAnotherGoroutine aborts a hanging response from a
// goroutine of the bubble once the stream is blocked.
func TestFakeAbortFromAnotherGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		fake := agentcoretest.New(agentcoretest.Response{Hang: true})
		done := make(chan []event)
		go func() {
			done <- timeline(fake.Stream(ctx, agentcoretest.Model(), agentcore.Request{}, agentcore.StreamOptions{}))
		}()
		synctest.Wait()
		select {
		case <-done:
			require.Fail(t, "the response ended before the abort")
		default:
		}
		time.Sleep(time.Hour)
		cancel()
		got := <-done
		require.NotEmpty(t, got)
		assert.Equal(t, event{"error", time.Hour, agentcoretest.AbortedText}, got[len(got)-1])
	})
}
