package temporal_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"
)

// dialWith connects to the test server with data converter dc; the
// caller closes the client.
func dialWith(t *testing.T, dc converter.DataConverter) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: server.GetFrontendHostPort(), Namespace: server.GetDefaultNamespace(),
		Logger: quietLogger{}, DataConverter: dc})
	require.NoError(t, err)
	return c
}

// bigResult is the size of a large tool result.
const bigResult = 256 << 10

// largeResults returns session options whose model asks for calls until
// the context holds n tool results and whose tool answers bigResult
// bytes, then answers "done" and, for later runs, "ok".
func largeResults(n int) durable.Options {
	fake := agentcoretest.NewFunc(func(_ context.Context, c agentcoretest.Call) agentcoretest.Response {
		results := 0
		for _, m := range c.Request.Messages {
			if _, ok := m.(*agentcore.ToolResultMessage); ok {
				results++
			}
		}
		last := c.Request.Messages[len(c.Request.Messages)-1]
		if _, ok := last.(*agentcore.UserMessage); ok && results > 0 {
			return agentcoretest.TextResponse("ok")
		}
		if results < n {
			return agentcoretest.ToolCallResponse(echoCall(fmt.Sprintf("c%d", results+1), "x"))
		}
		return agentcoretest.TextResponse("done")
	})
	tool := echoTool(agentcore.ReplayNever, func(context.Context, string) (string, error) {
		return strings.Repeat("x", bigResult), nil
	})
	return durable.Options{SystemPrompt: "sys", Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{tool}}
}

// TestLargeResultsWithoutClaimCheck runs twelve tool calls of 256 KB
// results each on a session without a claim check: the results past the
// session's payload limit are refused with an error result, and the
// session keeps working.
func TestLargeResultsWithoutClaimCheck(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a bound for a hang, not a speed test
	defer cancel()
	s := startSession(t, largeResults(12))
	require.NoError(t, s.Prompt(ctx, "go"))
	st, err := s.State(ctx)
	require.NoError(t, err)
	assertOneResultPerCall(t, st.Messages)
	kept, refused := 0, 0
	for _, r := range toolResults(st.Messages) {
		switch {
		case len(r.Text()) == len("echo: ")+bigResult:
			kept++
		case strings.Contains(r.Text(), "payload limit"):
			refused++
		}
	}
	t.Logf("kept %d results, refused %d; history %d events, %d bytes", kept, refused, st.HistoryLength, st.HistorySize)
	assert.Equal(t, 12, kept+refused)
	assert.Positive(t, kept)
	assert.Positive(t, refused)
	assert.Equal(t, "done", st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage).Text())

	// The session goes on: prompts, aborts and edits are served.
	require.NoError(t, s.Abort(ctx))
	require.NoError(t, s.Prompt(ctx, "again"))
	require.NoError(t, s.SetMessages(ctx, st.Messages[:1]))
	require.NoError(t, s.Prompt(ctx, "after compaction"))
}

// TestLargeResultsWithClaimCheck runs twelve tool calls of 256 KB results
// each on workers and a client whose data converter moves large payloads
// to a store: every result is kept, the history holds keys only, and the
// session goes on.
func TestLargeResultsWithClaimCheck(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a bound for a hang, not a speed test
	defer cancel()
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), &durable.ClaimCheck{Store: durable.DirStore(t.TempDir())})
	o := largeResults(12)
	o.PayloadLimit = durable.NoPayloadLimit
	sessions := durable.New(o)
	queue := taskQueue(t)
	c := dialWith(t, dc)
	w := worker.New(c, queue, workerOptions())
	sessions.Register(w)
	require.NoError(t, w.Start())
	t.Cleanup(func() { w.Stop(); c.Close() })
	cc := dialWith(t, dc)
	t.Cleanup(cc.Close)
	s, err := durable.NewClient(cc, sessions.Name(), queue).Start(ctx, queue)
	require.NoError(t, err)

	require.NoError(t, s.Prompt(ctx, "go"))
	st, err := s.State(ctx)
	require.NoError(t, err)
	assertOneResultPerCall(t, st.Messages)
	results := toolResults(st.Messages)
	require.Len(t, results, 12)
	for id, r := range results {
		assert.Len(t, r.Text(), len("echo: ")+bigResult, id)
	}
	t.Logf("history %d events, %d bytes; continued %d times", st.HistoryLength, st.HistorySize, st.Continued)
	assert.Less(t, st.HistorySize, 1<<20, "the history holds keys, not the results")
	require.NoError(t, s.Prompt(ctx, "again"))

	// Every message once through the messages cursor, in parts.
	var got []agentcore.Message
	for next := 0; ; {
		msgs, n, _, err := s.Messages(ctx, next)
		require.NoError(t, err)
		got = append(got, msgs...)
		if len(msgs) == 0 {
			break
		}
		next = n
	}
	st, err = s.State(ctx)
	require.NoError(t, err)
	assert.Equal(t, len(st.Messages), len(got))
}

// TestClaimCheckRoundTrip moves a large payload to the store and back and
// leaves a small one in place.
func TestClaimCheckRoundTrip(t *testing.T) {
	store := durable.DirStore(t.TempDir())
	cc := &durable.ClaimCheck{Store: store, Threshold: 1024}
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), cc)
	big := strings.Repeat("y", 4096)
	p, err := dc.ToPayload(big)
	require.NoError(t, err)
	assert.Equal(t, durable.ClaimCheckEncoding, string(p.GetMetadata()["encoding"]))
	assert.Less(t, len(p.GetData()), 100)
	var back string
	require.NoError(t, dc.FromPayload(p, &back))
	assert.Equal(t, big, back)

	small, err := dc.ToPayload("small")
	require.NoError(t, err)
	assert.Equal(t, "json/plain", string(small.GetMetadata()["encoding"]))

	_, err = store.Get(context.Background(), "0000")
	assert.Error(t, err, "a missing key")
}

// TestTooLargeRefused refuses a prompt, a steering message and an
// appended message that would take the session past its payload limit:
// nothing changes, and the session takes the next prompt.
func TestTooLargeRefused(t *testing.T) {
	ctx := testCtx(t)
	o := largeResults(0)
	o.PayloadLimit = 512 << 10
	s := startSession(t, o)
	large := strings.Repeat("z", 300<<10)
	assert.ErrorIs(t, s.Prompt(ctx, large), durable.ErrTooLarge)
	assert.ErrorIs(t, s.Steer(ctx, agentcore.UserText(large)), durable.ErrTooLarge)
	assert.ErrorIs(t, s.AppendMessage(ctx, agentcore.UserText(large+large)), durable.ErrTooLarge)
	st, err := s.State(ctx)
	require.NoError(t, err)
	assert.Len(t, st.Messages, 1)
	assert.Empty(t, st.Steering)
	assert.Equal(t, 0, st.Runs)
	require.NoError(t, s.Prompt(ctx, "small"))
}
