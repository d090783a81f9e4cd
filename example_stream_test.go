package agentcore_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/pi-go/agentcore"
)

// echoModel is a complete [agentcore.StreamFn]: a "model" that repeats the
// last user message word by word. It shows the producer side every
// provider implements: build the message as it streams, push the events
// through the writer, and end with Done or Error. A failure, an abort
// included, is never a panic or a Go error: it is a final message with
// stopReason "error" or "aborted" and an ErrorMessage.
func echoModel(ctx context.Context, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
	return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
		msg := &agentcore.AssistantMessage{
			Content: []agentcore.ContentBlock{}, API: model.API, Provider: model.Provider, Model: model.ID,
			StopReason: agentcore.StopStop,
		}
		var last string
		for _, m := range req.Messages {
			if u, ok := m.(*agentcore.UserMessage); ok {
				last = u.Content.Text()
			}
		}
		if last == "" {
			msg.StopReason, msg.ErrorMessage = agentcore.StopError, "echo: nothing to repeat"
			w.Error(msg)
			return
		}
		if !w.Push(&agentcore.StartEvent{Partial: msg}) {
			return // the consumer stopped reading: just return
		}
		msg.Content = append(msg.Content, agentcore.TextBlock{})
		w.Push(&agentcore.TextStartEvent{ContentIndex: 0, Partial: msg})
		text := ""
		for i, word := range strings.Fields(last) {
			if ctx.Err() != nil {
				msg.StopReason, msg.ErrorMessage = agentcore.StopAborted, "Request was aborted"
				w.Error(msg)
				return
			}
			if i > 0 {
				word = " " + word
			}
			text += word
			msg.Content[0] = agentcore.TextBlock{Text: text}
			// The writer copies the partial, so msg can keep changing.
			if !w.TextDelta(0, word, msg) {
				return
			}
		}
		w.Push(&agentcore.TextEndEvent{ContentIndex: 0, Content: text, Partial: msg})
		w.Done(msg) // sets DurationMs and ends the stream; later pushes are dropped
	})
}

// NewAssistantStream is how a stream function is written: the producer
// runs on the consumer's goroutine, so a consumer that stops early leaves
// nothing running. Ranging over the stream directly is what the loop does.
func ExampleNewAssistantStream() {
	model := agentcore.Model{ID: "echo", API: "echo", Provider: "local"}
	req := agentcore.Request{Messages: []agentcore.Message{agentcore.UserText("streams are push iterators")}}
	var deltas []string
	for ev := range echoModel(context.Background(), model, req, agentcore.StreamOptions{}) {
		switch ev := ev.(type) {
		case *agentcore.TextDeltaEvent:
			deltas = append(deltas, fmt.Sprintf("%q", ev.Delta))
		case *agentcore.DoneEvent:
			fmt.Println(strings.Join(deltas, " "))
			fmt.Printf("%s: %s (timed: %v)\n", ev.Type(), ev.Message.Text(), ev.Message.DurationMs != nil)
		}
	}
	// The failure contract: no user message gives a final error event.
	for ev := range echoModel(context.Background(), model, agentcore.Request{}, agentcore.StreamOptions{}) {
		fmt.Println(ev.Type(), ev.(*agentcore.ErrorEvent).Message.ErrorMessage)
	}
	// Output:
	// "streams" " are" " push" " iterators"
	// done: streams are push iterators (timed: true)
	// error echo: nothing to repeat
}

// SetDefaultStreamFn installs a process-wide stream function for Agents and
// loops configured without one; it is the package's only global state.
// Without either, a run fails at once with [agentcore.ErrNoStreamFn].
func ExampleSetDefaultStreamFn() {
	agent := agentcore.New(agentcore.Options{Model: agentcore.Model{ID: "echo"}})
	fmt.Println(agent.Prompt(context.Background(), "hello"))

	agentcore.SetDefaultStreamFn(echoModel)
	defer agentcore.SetDefaultStreamFn(nil)
	if err := agent.Prompt(context.Background(), "hello there"); err != nil {
		fmt.Println("error:", err)
	}
	msgs := agent.Messages()
	fmt.Println(msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text())
	// Output:
	// agentcore: no stream function configured: set StreamFn or call SetDefaultStreamFn
	// hello there
}

// A partial is the producer's working message: it grows after its event.
// A consumer that keeps events past the event keeps CloneEvent's copies.
func ExampleCloneEvent() {
	model := agentcore.Model{ID: "echo", API: "echo", Provider: "local"}
	req := agentcore.Request{Messages: []agentcore.Message{agentcore.UserText("keep what you see")}}
	var kept, shared []*agentcore.TextDeltaEvent
	for ev := range echoModel(context.Background(), model, req, agentcore.StreamOptions{}) {
		if d, ok := ev.(*agentcore.TextDeltaEvent); ok {
			shared = append(shared, d)
			kept = append(kept, agentcore.CloneEvent(d).(*agentcore.TextDeltaEvent))
		}
	}
	for i := range kept {
		fmt.Printf("%q was %q, is now %q\n", kept[i].Delta, kept[i].Partial.Text(), shared[i].Partial.Text())
	}
	// Output:
	// "keep" was "keep", is now "keep what you see"
	// " what" was "keep what", is now "keep what you see"
	// " you" was "keep what you", is now "keep what you see"
	// " see" was "keep what you see", is now "keep what you see"
}
