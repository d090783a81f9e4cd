package structured

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/pi-go/agentcore"
)

// CustomType is the customType of the messages the layer adds to a run:
// the nudge after a prose answer and the repair of an invalid native
// answer. They are pi's custom messages (role "custom", display false): a
// session file keeps them as custom_message entries, the model reads them
// as user messages (the layer's ConvertToLLM hook, or pi's), and an AG-UI
// client is not shown them, since the person did not type them.
const CustomType = "structured"

// askKey is the context key of the run that asks for an answer.
type askKey struct{}

// asked marks the runs that ask an Answer for its value: the Answer (a
// *Answer[T], compared by identity) and, once the Answer's run wrapper
// took the run, the messages the run's loops added.
type asked struct {
	answer any

	mu   sync.Mutex
	msgs []agentcore.Message
}

// Ask returns ctx marked so that the runs of an Agent started with it
// ask for the answer: the layer offers its tool (or the native response
// format), ends the run at an accepted answer, nudges or repairs, and the
// run's Prompt or Continue returns an [*Error] when it ends without an
// answer. [Answer.Prompt] and [Answer.PromptMessages] ask by themselves;
// Ask is for a run started otherwise: agent.Continue(answer.Ask(ctx))
// after a held call was decided, or an agui handler whose every request
// asks (wrap it: h.ServeHTTP(w, r.WithContext(answer.Ask(r.Context())))).
//
// On an Agent, the Answer acts only on runs that ask: a plain
// [agentcore.Agent.Prompt] is left alone. Under [agentcore.RunLoop] and on
// surfaces without an Agent (a durable workflow), where the loop serves
// the answer alone, every run asks and Ask is not needed.
func (a *Answer[T]) Ask(ctx context.Context) context.Context {
	return context.WithValue(ctx, askKey{}, &asked{answer: a})
}

// askedOf returns the mark of ctx when it asks a, else nil.
func (a *Answer[T]) askedOf(ctx context.Context) *asked {
	if m, ok := ctx.Value(askKey{}).(*asked); ok && m.answer == any(a) {
		return m
	}
	return nil
}

// scope is one installation of an Answer: on an Agent (scoped) it acts on
// the runs that ask for the answer; elsewhere on every run.
type scope[T any] struct {
	a      *Answer[T]
	scoped bool
}

// acts reports whether the run of ctx is one the answer acts on.
func (s scope[T]) acts(ctx context.Context) bool {
	return !s.scoped || s.a.askedOf(ctx) != nil
}

// wrapRun is the layer's run wrapper on an Agent: a run that asks for the
// answer collects the messages its loops add and, when it ended without
// an accepted answer, fails with the [*Error] that says why.
func (s scope[T]) wrapRun(next agentcore.RunFunc) agentcore.RunFunc {
	return func(ctx context.Context, run agentcore.Run) error {
		if s.a.askedOf(ctx) == nil {
			return next(ctx, run)
		}
		m := &asked{answer: s.a}
		if err := next(context.WithValue(ctx, askKey{}, m), run); err != nil {
			return err
		}
		m.mu.Lock()
		msgs := m.msgs
		m.mu.Unlock()
		if _, err := s.a.Result(msgs); err != nil {
			return err
		}
		return nil
	}
}

// listen collects the messages of a run that asks, for the run wrapper.
func (s scope[T]) listen(ctx context.Context, ev agentcore.AgentEvent) {
	end, ok := ev.(*agentcore.AgentEndEvent)
	if !ok {
		return
	}
	if m := s.a.askedOf(ctx); m != nil {
		m.mu.Lock()
		m.msgs = append(m.msgs, end.Messages...)
		m.mu.Unlock()
	}
}

// layerMessage is a message of the layer to the model: a pi custom
// message of [CustomType], not shown. Its timestamp is zero, so a
// replayed run makes the same message.
func layerMessage(text string) agentcore.Message {
	raw, _ := json.Marshal(struct {
		Role       string `json:"role"`
		CustomType string `json:"customType"`
		Content    string `json:"content"`
		Display    bool   `json:"display"`
		Timestamp  int64  `json:"timestamp"`
	}{"custom", CustomType, text, false, 0})
	return &agentcore.CustomMessage{RoleName: "custom", Raw: raw}
}

// convertToLLM shows the model the layer's messages as user messages; the
// rest pass on unchanged.
func convertToLLM(_ context.Context, messages []agentcore.Message) ([]agentcore.Message, error) {
	var out []agentcore.Message
	for i, m := range messages {
		u := asUserMessage(m)
		if u == nil {
			if out != nil {
				out = append(out, m)
			}
			continue
		}
		if out == nil {
			out = append(make([]agentcore.Message, 0, len(messages)), messages[:i]...)
		}
		out = append(out, u)
	}
	if out == nil {
		return messages, nil
	}
	return out, nil
}

// asUserMessage returns m as the model reads it when m is a message of
// the layer, else nil.
func asUserMessage(m agentcore.Message) *agentcore.UserMessage {
	cm, ok := m.(*agentcore.CustomMessage)
	if !ok || cm.RoleName != "custom" {
		return nil
	}
	var w struct {
		CustomType string          `json:"customType"`
		Content    json.RawMessage `json:"content"`
		Timestamp  int64           `json:"timestamp"`
	}
	if json.Unmarshal(cm.Raw, &w) != nil || w.CustomType != CustomType {
		return nil
	}
	var text string
	if json.Unmarshal(w.Content, &text) != nil {
		return nil
	}
	return &agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: text}), Timestamp: w.Timestamp}
}
