package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/models"
)

// request is what the check records of one request: its body, and the
// server's answer.
type request struct {
	summary   bool
	maxTokens int // -1 when the body sets none
	// prompt is the server's count of the request's prompt tokens: from
	// its usage (input plus cache reads), or from its refusal of a
	// prompt over its context; -1 when it gave none.
	prompt int
	// refused is set when the server refused the request as over its
	// context.
	refused bool
	sent    bool // the body went out (OnPayload saw it)
	bytes   int  // the body's size
}

type requestKey struct{}

// record wraps the stream function every request goes through (the
// agent's and the summaries'): each call gets a request, which
// onPayload fills from the body and the final event from the answer.
func (s *session) record(next agentcore.StreamFn) agentcore.StreamFn {
	return func(ctx context.Context, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
		r := &request{maxTokens: -1, prompt: -1}
		stream := next(context.WithValue(ctx, requestKey{}, r), model, req, opts)
		return func(yield func(agentcore.AssistantEvent) bool) {
			for ev := range stream {
				switch ev := ev.(type) {
				case *agentcore.DoneEvent:
					s.answered(r, ev.Message, model.ContextWindow)
				case *agentcore.ErrorEvent:
					s.answered(r, ev.Message, model.ContextWindow)
				}
				if !yield(ev) {
					return
				}
			}
		}
	}
}

// refusal is llama.cpp's text for a prompt over its context.
var refusal = regexp.MustCompile(`request \((\d+) tokens\) exceeds the available context size`)

// answered records the server's prompt tokens for r from its answer.
func (s *session) answered(r *request, m *agentcore.AssistantMessage, window int) {
	if m == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !r.sent {
		return
	}
	if match := refusal.FindStringSubmatch(m.ErrorMessage); match != nil {
		r.refused = true
		r.prompt, _ = strconv.Atoi(match[1])
		s.trace = append(s.trace, fmt.Sprintf("(refused prompt=%d)", r.prompt))
		return
	}
	if m.StopReason == agentcore.StopError && models.IsContextOverflow(*m, window) {
		r.refused = true
	}
	if u := m.Usage; u.Input+u.CacheRead > 0 {
		r.prompt = int(u.Input + u.CacheRead)
	}
	if r.summary {
		s.trace = append(s.trace, fmt.Sprintf("(summary %s in=%d out=%d)", m.StopReason, r.prompt, m.Usage.Output))
	}
}

// onPayload records the max tokens of every request body, and whether it
// asks for a summary.
func (s *session) onPayload(ctx context.Context, _ agentcore.Model, payload json.RawMessage) (json.RawMessage, error) {
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		MaxCompletionTokens *int `json:"max_completion_tokens"`
		MaxTokens           *int `json:"max_tokens"`
	}
	if err := json.Unmarshal(payload, &body); err != nil {
		return nil, err
	}
	r, ok := ctx.Value(requestKey{}).(*request)
	if !ok {
		r = &request{maxTokens: -1, prompt: -1}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.sent { // sent again: a new request
		r = &request{maxTokens: -1, prompt: -1}
	}
	r.sent, r.bytes = true, len(payload)
	switch {
	case body.MaxCompletionTokens != nil:
		r.maxTokens = *body.MaxCompletionTokens
	case body.MaxTokens != nil:
		r.maxTokens = *body.MaxTokens
	}
	if len(body.Messages) > 0 {
		if text, ok := body.Messages[0].Content.(string); ok && strings.HasPrefix(text, "You write context checkpoints") {
			r.summary = true
		}
	}
	s.requests = append(s.requests, r)
	kind := "A"
	if r.summary {
		kind = "S"
	}
	s.trace = append(s.trace, fmt.Sprintf("%s%d", kind, r.maxTokens))
	return nil, nil
}

// requestFigures counts the requests.
type requestFigures struct {
	agent, summary, starved, unset int
	sizes                          []int // the max tokens set, sorted
	// over counts the requests over the window by the server's count or
	// refused as over its context; unknown, those it gave no count for.
	over, unknown int
	maxPrompt     int // the most prompt tokens the server counted
	// room is the fewest tokens the window left to answer (the window
	// less the server's prompt count) over the requests it counted.
	room int
	// bytesPerToken is the median of a body's bytes per prompt token the
	// server counted: the scale of its tokenizer (pi's estimate takes 4
	// characters a token).
	bytesPerToken float64
}

func (s *session) requestFigures(minOutput, window int) requestFigures {
	f := requestFigures{room: -1}
	var scales []float64
	for _, r := range s.requests {
		if r.summary {
			f.summary++
		} else {
			f.agent++
		}
		switch {
		case r.maxTokens < 0:
			f.unset++
		case r.maxTokens < minOutput:
			f.starved++
		}
		if r.maxTokens >= 0 {
			f.sizes = append(f.sizes, r.maxTokens)
		}
		switch {
		case r.refused || r.prompt > window:
			f.over++
		case r.prompt < 0:
			f.unknown++
		}
		f.maxPrompt = max(f.maxPrompt, r.prompt)
		if r.prompt >= 0 && (f.room < 0 || window-r.prompt < f.room) {
			f.room = window - r.prompt
		}
		if r.prompt > 0 {
			scales = append(scales, float64(r.bytes)/float64(r.prompt))
		}
	}
	sort.Ints(f.sizes)
	sort.Float64s(scales)
	if len(scales) > 0 {
		f.bytesPerToken = scales[len(scales)/2]
	}
	return f
}
