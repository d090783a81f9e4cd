package agentcore_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// streamed is the text of each partial a consumer kept, and what the
// partial showed while its event was delivered.
type streamed struct {
	kept, seen []string
}

func (s *streamed) check(t *testing.T, stable bool) {
	t.Helper()
	if len(s.kept) != 6 || strings.Join(s.seen, ",") != ",a,ab,abc,abcd,abcd" {
		t.Fatalf("seen during the events: %q", s.seen)
	}
	if got := strings.Join(s.kept, ","); (got == strings.Join(s.seen, ",")) != stable {
		t.Fatalf("kept partials %q (stable %v)", s.kept, stable)
	}
}

func textOf(m *agentcore.AssistantMessage) string {
	if len(m.Content) == 0 {
		return ""
	}
	return m.Content[0].(agentcore.TextBlock).Text
}

var fourChunks = agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "abcd"}}, Chunks: 4}

// TestAgentPartials checks what listeners may keep of message_update
// events: by default the message is a copy that never changes (the stream
// event's own Partial is the producer's message); with LivePartials it is
// the producer's message too, and State still hands out copies (the first
// State of a live stream shows the message as it started, here empty like
// the first partial).
func TestAgentPartials(t *testing.T) {
	for _, live := range []bool{false, true} {
		name := "copies"
		if live {
			name = "live"
		}
		t.Run(name, func(t *testing.T) {
			a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(fourChunks).Stream, LivePartials: live})
			var msgs, partials []*agentcore.AssistantMessage
			var byMessage, byEvent streamed
			var states []agentcore.Message
			a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
				if u, ok := ev.(agentcore.MessageUpdateEvent); ok {
					msgs = append(msgs, u.Message)
					byMessage.seen = append(byMessage.seen, textOf(u.Message))
					p := agentcoreEventPartial(u.AssistantEvent)
					partials = append(partials, p)
					byEvent.seen = append(byEvent.seen, textOf(p))
					states = append(states, a.State().StreamingMessage)
				}
			})
			if err := a.Prompt(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			for i := range msgs {
				byMessage.kept = append(byMessage.kept, textOf(msgs[i]))
				byEvent.kept = append(byEvent.kept, textOf(partials[i]))
			}
			byMessage.check(t, !live)
			byEvent.check(t, false)
			var fromState streamed
			fromState.seen = byMessage.seen
			for _, m := range states {
				fromState.kept = append(fromState.kept, textOf(m.(*agentcore.AssistantMessage)))
			}
			fromState.check(t, true)
		})
	}
}

// agentcoreEventPartial returns the Partial of a content event.
func agentcoreEventPartial(ev agentcore.AssistantEvent) *agentcore.AssistantMessage {
	switch e := ev.(type) {
	case agentcore.TextStartEvent:
		return e.Partial
	case agentcore.TextDeltaEvent:
		return e.Partial
	case agentcore.TextEndEvent:
		return e.Partial
	}
	return nil
}

// TestRunLoopPartials checks that the events of a RunLoop, read on another
// goroutine, carry copies everywhere.
func TestRunLoopPartials(t *testing.T) {
	run, err := agentcore.RunLoop(context.Background(), []agentcore.Message{agentcore.UserText("go")}, agentcore.AgentContext{},
		agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(fourChunks).Stream})
	if err != nil {
		t.Fatal(err)
	}
	var updates []agentcore.MessageUpdateEvent
	for ev := range run.Events() {
		if u, ok := ev.(agentcore.MessageUpdateEvent); ok {
			updates = append(updates, u)
		}
	}
	if _, err := run.Wait(); err != nil {
		t.Fatal(err)
	}
	// Read only now, long after the stream moved on.
	want := strings.Split(",a,ab,abc,abcd,abcd", ",")
	byMessage := streamed{seen: want}
	byEvent := streamed{seen: want}
	for _, u := range updates {
		byMessage.kept = append(byMessage.kept, textOf(u.Message))
		byEvent.kept = append(byEvent.kept, textOf(agentcoreEventPartial(u.AssistantEvent)))
	}
	byMessage.check(t, true)
	byEvent.check(t, true)
}

// TestLivePartialsStateRace reads the Agent's state from another goroutine
// while a live stream runs, and checks that the streaming message it shows
// never goes back; run with -race.
func TestLivePartialsStateRace(t *testing.T) {
	resp := agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: strings.Repeat("x", 200)}}, Chunks: 200}
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(resp).Stream, LivePartials: true})
	a.Subscribe(func(context.Context, agentcore.AgentEvent) {})
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		shown := 0
		for {
			select {
			case <-done:
				return
			default:
				if m, ok := a.State().StreamingMessage.(*agentcore.AssistantMessage); ok {
					n := len(textOf(m))
					if n < shown {
						t.Errorf("State showed %d characters after %d", n, shown)
						return
					}
					shown = n
				}
			}
		}
	}()
	err := a.Prompt(context.Background(), "go")
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
}

// TestMessageUpdateEventKept checks what a listener keeps of a whole
// message_update event: by default each event is its own and stays as it
// is; with LivePartials the events share the stream's update, so a kept
// event shows the latest one, and Clone keeps an event as it was.
func TestMessageUpdateEventKept(t *testing.T) {
	tests := []struct {
		name   string
		live   bool
		clone  bool
		stable bool
	}{
		{"copies", false, false, true},
		{"copies/cloned", false, true, true},
		{"live", true, false, false},
		{"live/cloned", true, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(fourChunks).Stream, LivePartials: tt.live})
			var kept []agentcore.MessageUpdateEvent
			var seen []string
			a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
				if u, ok := ev.(agentcore.MessageUpdateEvent); ok {
					seen = append(seen, u.AssistantEvent.Type()+":"+textOf(u.Message))
					if tt.clone {
						u = u.Clone()
					}
					kept = append(kept, u)
				}
			})
			if err := a.Prompt(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			var later []string
			for _, u := range kept {
				if p := agentcoreEventPartial(u.AssistantEvent); tt.clone && p != u.Message {
					t.Fatalf("a clone's event partial %p is not its message %p", p, u.Message)
				}
				later = append(later, u.AssistantEvent.Type()+":"+textOf(u.Message))
			}
			want := "text_start:,text_delta:a,text_delta:ab,text_delta:abc,text_delta:abcd,text_end:abcd"
			if got := strings.Join(seen, ","); got != want {
				t.Fatalf("seen during the events: %s", got)
			}
			if got := strings.Join(later, ","); (got == want) != tt.stable {
				t.Fatalf("kept events read later: %s (stable %v)", got, tt.stable)
			}
		})
	}
}

// TestMessageUpdateEventZero checks that the zero event, which holds no
// update, marshals and clones without panicking.
func TestMessageUpdateEventZero(t *testing.T) {
	var ev agentcore.MessageUpdateEvent
	data, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"message_update","message":null,"assistantMessageEvent":null}`; string(data) != want {
		t.Fatalf("got %s, want %s", data, want)
	}
	if c := ev.Clone(); c.MessageUpdate != nil {
		t.Fatalf("clone of the zero event holds %+v", c.MessageUpdate)
	}
}
