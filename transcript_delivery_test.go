package agentcore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestTranscriptDeliveryAdversarial changes the transcript from many
// goroutines, from a listener (re-entrantly, during runs and outside
// them) and from a tool, while runs start and end: listeners are never
// called concurrently, nothing deadlocks, no event is lost (the events
// rebuild the transcript the Agent holds) and refused calls answer
// ErrBusy only.
func TestTranscriptDeliveryAdversarial(t *testing.T) {
	fake := agentcoretest.NewFunc(func(_ context.Context, c agentcoretest.Call) agentcoretest.Response {
		if c.Index%2 == 1 {
			return agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c", "poke", `{}`))
		}
		return agentcoretest.TextResponse("ok")
	})
	var a *agentcore.Agent
	poke := agentcore.NewTool("poke", "changes the transcript", func(context.Context, string, struct{}, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		a.AppendMessage(user("from tool"))
		return agentcore.TextResult("done"), nil
	})
	a = agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{poke}})
	var reentries atomic.Int32
	a.Subscribe(func(ctx context.Context, ev agentcore.AgentEvent) {
		end, ok := ev.(*agentcore.MessageEndEvent)
		if !ok || end.Message.Role() != "user" {
			return
		}
		switch n := reentries.Add(1); n % 7 {
		case 1:
			a.AppendMessage(custom{})
		case 2:
			_ = a.ReplaceMessage(end.Message, user("replaced by listener"))
		case 3:
			if err := a.Reset(); err != nil {
				assert.ErrorIs(t, err, agentcore.ErrBusy)
			}
		case 4:
			if err := a.Prompt(ctx, "nested"); err != nil {
				assert.ErrorIs(t, err, agentcore.ErrBusy)
			}
		case 5:
			a.SetMessages(a.Messages())
		}
	})
	m := newMirror(t, a)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 40 {
				msg := user(fmt.Sprintf("%d-%d", g, i))
				a.AppendMessage(msg)
				switch i % 8 {
				case 2:
					_ = a.ReplaceMessage(msg, user("r"))
				case 5:
					if msgs := a.Messages(); len(msgs) > 3 {
						a.SetMessages(msgs[len(msgs)-3:])
					}
				case 7:
					if err := a.Reset(); err != nil {
						assert.ErrorIs(t, err, agentcore.ErrBusy)
					}
				}
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			for range 15 {
				err := a.Prompt(context.Background(), "p")
				if errors.Is(err, agentcore.ErrBusy) {
					continue
				}
				var re *agentcore.RunError
				if err != nil && !errors.As(err, &re) {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	require.NoError(t, a.WaitForIdle(context.Background()))
	got, _ := m.snapshot()
	assert.Equal(t, a.Messages(), got)
}

// TestWaitForIdleAwaitsDelivery checks the promise of ErrBusy's doc: a
// caller refused while another goroutine delivers a transcript change
// outside a run can wait with WaitForIdle, and then start its run.
func TestWaitForIdleAwaitsDelivery(t *testing.T) {
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(agentcoretest.TextResponse("hi")).Stream})
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if _, ok := ev.(*agentcore.TranscriptSetEvent); ok {
			once.Do(func() { close(entered); <-release })
		}
	})
	done := make(chan struct{})
	go func() { defer close(done); a.SetMessages(nil) }()
	<-entered
	require.ErrorIs(t, a.Prompt(context.Background(), "refused"), agentcore.ErrBusy)
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, a.WaitForIdle(gone), context.Canceled, "WaitForIdle waits while a change is being delivered")
	idle := make(chan error, 1)
	go func() { idle <- a.WaitForIdle(context.Background()) }()
	close(release)
	require.NoError(t, <-idle)
	<-done
	require.NoError(t, a.Prompt(context.Background(), "after"))
}
