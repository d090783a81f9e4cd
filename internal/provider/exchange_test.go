package provider

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
)

// scripted is an Exchange whose steps answer as scripted.
type scripted struct {
	send  *Failure // nil: accepted
	read  *Failure
	end   *Failure
	steps []string
}

func (s *scripted) Send(context.Context) (*http.Response, *Failure) {
	s.steps = append(s.steps, "send")
	if s.send != nil {
		return nil, s.send
	}
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(""))}, nil
}

func (s *scripted) Read(context.Context, io.Reader) *Failure {
	s.steps = append(s.steps, "read")
	return s.read
}

func (s *scripted) End(context.Context) *Failure {
	s.steps = append(s.steps, "end")
	return s.end
}

func TestRun(t *testing.T) {
	refused := Status(503, nil, "503 busy")
	cut := TextFailure("cut")
	tests := []struct {
		name   string
		ex     *scripted
		events string
		steps  string
	}{
		{"done", &scripted{}, "start done", "send read end"},
		{"refused", &scripted{send: refused}, "error", "send"},
		{"read fails", &scripted{read: cut}, "start error", "send read"},
		{"ends badly", &scripted{end: cut}, "start error", "send read end"},
		{"stopped", &scripted{}, "start", "send"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := agentcore.Model{ID: "m", API: "a", Provider: "p"}
			var events []string
			for ev := range agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
				Run(context.Background(), w, Message(model), tt.ex)
			}) {
				events = append(events, ev.Type())
				if tt.name == "stopped" {
					break // the consumer stops: the exchange is not judged
				}
			}
			assert.Equal(t, strings.Fields(tt.events), events)
			assert.Equal(t, strings.Fields(tt.steps), tt.ex.steps)
		})
	}
}

func TestStreamFn(t *testing.T) {
	model := agentcore.Model{ID: "m", API: "a", Provider: "p"}
	req := agentcore.Request{Messages: []agentcore.Message{agentcore.UserText("Hi")}}
	var got Call
	fn := StreamFn(func(c Call) Exchange {
		got = c
		return &scripted{}
	})
	var events []string
	for ev := range fn(context.Background(), model, req, agentcore.StreamOptions{APIKey: "k"}) {
		events = append(events, ev.Type())
	}
	assert.Equal(t, []string{"start", "done"}, events)
	assert.Equal(t, model, got.Model)
	assert.Equal(t, req, got.Request)
	assert.Equal(t, "k", got.Options.APIKey)
	assert.NotNil(t, got.W)
	assert.Equal(t, "m", got.Out.Model)
}

func TestObserver(t *testing.T) {
	assert.Nil(t, Call{}.Observer(context.Background()), "no hook, no observer")
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "ctx")
	var seen []string
	c := Call{Model: agentcore.Model{ID: "m"}, Options: agentcore.StreamOptions{
		OnProviderStreamEvent: func(ctx context.Context, m agentcore.Model, data json.RawMessage) error {
			seen = append(seen, ctx.Value(key{}).(string)+" "+m.ID+" "+string(data))
			return nil
		},
	}}
	assert.NoError(t, c.Observer(ctx)(json.RawMessage(`{}`)))
	assert.Equal(t, []string{"ctx m {}"}, seen)
}
