package provider

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
)

// scripted is an Exchange whose steps answer as scripted.
type scripted struct {
	send    *Failure // nil: accepted
	read    *Failure
	stopped bool
	end     *Failure
	steps   []string
}

func (s *scripted) Send(context.Context) (*http.Response, Failure) {
	s.steps = append(s.steps, "send")
	if s.send != nil {
		return nil, *s.send
	}
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(""))}, Failure{}
}

func (s *scripted) Read(context.Context, io.Reader) *Failure {
	s.steps = append(s.steps, "read")
	return s.read
}

func (s *scripted) End(context.Context) (bool, *Failure) {
	s.steps = append(s.steps, "end")
	return s.stopped, s.end
}

func TestRun(t *testing.T) {
	refused := Status(503, nil, "503 busy")
	cut := Failure{Text: "cut"}
	tests := []struct {
		name   string
		ex     *scripted
		events string
		steps  string
	}{
		{"done", &scripted{}, "start done", "send read end"},
		{"refused", &scripted{send: &refused}, "error", "send"},
		{"read fails", &scripted{read: &cut}, "start error", "send read"},
		{"ends badly", &scripted{end: &cut}, "start error", "send read end"},
		{"stopped", &scripted{stopped: true}, "start error", "send read end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := agentcore.Model{ID: "m", API: "a", Provider: "p"}
			var events []string
			for ev := range agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
				Run(context.Background(), w, Message(model), tt.ex)
			}) {
				events = append(events, ev.Type())
			}
			// An exchange that stopped without a final event is ended as
			// incomplete by the stream writer.
			assert.Equal(t, strings.Fields(tt.events), events)
			assert.Equal(t, strings.Fields(tt.steps), tt.ex.steps)
		})
	}
}
