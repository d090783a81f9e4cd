package agentcoretest_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// request sends msgs to fake and drains the answer.
func request(t testing.TB, fake *agentcoretest.Fake, msgs []agentcore.Message) {
	t.Helper()
	for range fake.Stream(context.Background(), agentcoretest.Model(), agentcore.Request{Messages: msgs}, agentcore.StreamOptions{}) {
	}
}

// transcript returns n user messages.
func transcript(n int) []agentcore.Message {
	msgs := make([]agentcore.Message, n)
	for i := range msgs {
		msgs[i] = &agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: fmt.Sprint("turn ", i)})}
	}
	return msgs
}

// array identifies the backing array of a non-empty slice.
func array(s []agentcore.Message) *agentcore.Message { return &s[0] }

func TestFakeCallsShareTheTranscript(t *testing.T) {
	const session = 100
	msgs := transcript(session + 10)
	fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.TextResponse("ok")
	})
	// Each request gets its own slice, as an Agent's runs each copy the
	// transcript.
	var requests [][]agentcore.Message
	send := func(msgs []agentcore.Message) {
		requests = append(requests, msgs)
		request(t, fake, msgs)
	}
	for i := 1; i <= session; i++ {
		send(slices.Clone(msgs[:i]))
	}
	send(slices.Clone(msgs[:session/2]))    // a prefix of the transcript
	send(slices.Clone(msgs[1 : session+1])) // departs from it
	send(nil)
	send([]agentcore.Message{})

	calls := fake.Calls()
	require.Len(t, calls, len(requests))
	for i, c := range calls {
		assert.Equal(t, requests[i], c.Request.Messages, "call %d records its messages", c.Index)
		assert.Equal(t, len(c.Request.Messages), cap(c.Request.Messages), "call %d: an append to its record copies", c.Index)
	}
	arrays := map[*agentcore.Message]bool{}
	for _, c := range calls[:session] {
		arrays[array(c.Request.Messages)] = true
	}
	// Appending grows an array by doubling it, so a growing session's
	// records use a logarithmic number of arrays.
	assert.LessOrEqual(t, len(arrays), 12, "backing arrays of a session of %d requests", session)
	prefix, departing := calls[session], calls[session+1]
	assert.Same(t, array(calls[session-1].Request.Messages), array(prefix.Request.Messages), "a prefix shares the last request's array")
	assert.False(t, arrays[array(departing.Request.Messages)], "a departing request starts a new array")
	assert.Nil(t, calls[session+2].Request.Messages, "nil stays nil")
	assert.NotNil(t, calls[session+3].Request.Messages, "empty stays empty")
	assert.Empty(t, calls[session+3].Request.Messages)
}

// valueMessage is an app-defined message that is not a pointer and cannot
// be compared with ==.
type valueMessage struct{ parts []string }

func (valueMessage) Role() string { return "note" }

func TestFakeCallsWithValueMessages(t *testing.T) {
	a, b := valueMessage{[]string{"a"}}, valueMessage{[]string{"b"}}
	fake := agentcoretest.New(agentcoretest.TextResponse("1"), agentcoretest.TextResponse("2"))
	request(t, fake, []agentcore.Message{a})
	request(t, fake, []agentcore.Message{a, b})
	calls := fake.Calls()
	require.Len(t, calls, 2)
	assert.Equal(t, []agentcore.Message{a}, calls[0].Request.Messages)
	assert.Equal(t, []agentcore.Message{a, b}, calls[1].Request.Messages)
}

// TestFakeHeldGrowsLinearly sends a session's requests, each a fresh copy
// of a transcript growing by one message, and checks the heap the fake
// holds: the records of n requests of up to n messages hold O(n) message
// slots, not O(n²) (n²/2 slots are 32 MB at n = 2000).
func TestFakeHeldGrowsLinearly(t *testing.T) {
	const n = 2000
	msgs := transcript(n)
	fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.Response{}
	})
	before := heapInUse()
	for i := 1; i <= n; i++ {
		request(t, fake, slices.Clone(msgs[:i]))
	}
	held := heapInUse() - min(before, heapInUse())
	runtime.KeepAlive(fake)
	// A record (its Call) takes a few hundred bytes; the transcript array,
	// grown by appending, at most 2n slots of 16 bytes.
	assert.Less(t, held, uint64(n*1024), "bytes held by %d requests", n)
	require.Equal(t, n, fake.CallCount())
}

// BenchmarkFakeSession plays sessions of many turns, one prompt and one
// answer each, on an Agent and a Fake, and reports the heap held at the
// end of a session per turn (held-B/turn): constant across session lengths
// when what the fake records grows linearly with the turns.
func BenchmarkFakeSession(b *testing.B) {
	for _, turns := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("turns=%d", turns), func(b *testing.B) {
			b.ReportAllocs()
			var held uint64
			for b.Loop() {
				fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
					return agentcoretest.TextResponse("ok")
				})
				agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
				before := heapInUse()
				for range turns {
					require.NoError(b, agent.Prompt(context.Background(), "next"))
				}
				held = heapInUse() - before
				runtime.KeepAlive(agent)
			}
			b.ReportMetric(float64(held)/float64(turns), "held-B/turn")
		})
	}
}

// heapInUse returns the bytes of live heap objects after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func TestFakeCallsOfOneGrowingSlice(t *testing.T) {
	msgs := transcript(10)
	fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.TextResponse("ok")
	})
	// The requests of one run: one slice appended to in place.
	run := make([]agentcore.Message, 0, len(msgs))
	for _, m := range msgs {
		run = append(run, m)
		request(t, fake, run)
	}
	request(t, fake, run[:3]) // a prefix of it
	calls := fake.Calls()
	require.Len(t, calls, len(msgs)+1)
	for i, c := range calls[:len(msgs)] {
		assert.Equal(t, msgs[:i+1], c.Request.Messages, "call %d records its messages", c.Index)
	}
	assert.Equal(t, msgs[:3], calls[len(msgs)].Request.Messages)
}
