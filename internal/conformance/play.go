package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// player is one playing of a scenario.
type player struct {
	s        *Scenario
	rec      *recorder
	agent    *agentcore.Agent // nil for a Setup
	target   Target           // where actions go: the agent, or a Setup's
	fake     *agentcoretest.Fake
	mu       sync.Mutex
	requests int
	counters map[string]int
	// derive makes the hooks keyed by call number derive it from their
	// arguments (see callNumber); mismatch is the first call whose derived
	// number differed from its count.
	derive   bool
	mismatch string
	// appended are the messages the scenario appended with
	// AppendMessage, whose events pi's Agent does not emit.
	appended map[agentcore.Message]bool
}

// Options are how Play plays a scenario.
type Options struct {
	// Record keeps the trace. Without it (the benchmark mode) one
	// subscriber only counts events.
	Record bool
}

// Play plays s on a fresh Agent. Its steps, tools and listeners wait with
// time.Sleep and their goroutines start inside Play, so in a
// testing/synctest bubble the scenario plays in virtual time (as
// TestScenarios plays it) and elsewhere in real time (cmd/scenario, whose
// -bench times the runs).
func Play(ctx context.Context, s *Scenario, o Options) (Result, error) {
	record := o.Record
	p := &player{s: s, rec: &recorder{enabled: record}, counters: map[string]int{}}
	opts, err := p.options()
	if err != nil {
		return Result{}, err
	}
	p.agent = agentcore.New(opts)
	p.target = p.agent
	events := 0
	delays := len(s.ListenerDelayMs) > 0
	p.agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if p.apiEvent(ev) {
			return
		}
		events++
		if record {
			p.recordEvent(ev)
		}
		if !delays {
			return
		}
		if d := s.ListenerDelayMs[ev.Type()]; d > 0 {
			time.Sleep(time.Duration(d) * time.Millisecond)
		}
	})
	var running sync.WaitGroup
	start := time.Now()
	for i, step := range s.Steps {
		p.step(ctx, i, step, &running)
	}
	running.Wait()
	elapsed := time.Since(start)
	p.rec.out(p.snapshot())
	return Result{Trace: p.rec.lines, Elapsed: elapsed, Events: events, Requests: p.requests}, nil
}

// count increments and returns the counter of a hook.
func (p *player) count(hook string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.counters[hook]++
	return p.counters[hook]
}

// callNumber counts a call of hook and returns its number: the count, or
// with derive the number derived from the call's arguments, derived.
func (p *player) callNumber(hook string, derived int) int {
	n := p.count(hook)
	if !p.derive {
		return n
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if derived != n && p.mismatch == "" {
		p.mismatch = fmt.Sprintf("call %d of %s derives number %d", n, hook, derived)
	}
	return derived
}

// assistants is 1 plus the number of assistant messages in msgs: a hook's
// call number derived from its arguments.
func assistants(msgs []agentcore.Message) int {
	n := 1
	for _, m := range msgs {
		if m.Role() == "assistant" {
			n++
		}
	}
	return n
}

// appendMessage appends m to the Agent's transcript, remembering it.
func (p *player) appendMessage(m agentcore.Message) {
	p.mu.Lock()
	if p.appended == nil {
		p.appended = map[agentcore.Message]bool{}
	}
	p.appended[m] = true
	p.mu.Unlock()
	p.agent.AppendMessage(m)
}

// apiEvent reports whether ev reports a change of the Agent's API
// (SetMessages, Reset, ReplaceMessage, AppendMessage) rather than of a
// run: events this port emits and pi's Agent does not, left out of the
// trace.
func (p *player) apiEvent(ev agentcore.AgentEvent) bool {
	var m agentcore.Message
	switch ev := ev.(type) {
	case *agentcore.TranscriptSetEvent, *agentcore.MessageReplaceEvent:
		return true
	case *agentcore.MessageStartEvent:
		m = ev.Message
	case *agentcore.MessageEndEvent:
		m = ev.Message
	default:
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.appended[m]
}

func (p *player) recordEvent(ev agentcore.AgentEvent) {
	switch ev := ev.(type) {
	case *agentcore.MessageUpdateEvent:
		rec := map[string]any{"type": ev.Type(), "event": ev.AssistantEvent.Type()}
		// Every content event has contentIndex, the deltas delta; read them
		// off the event's JSON rather than switch over nine types.
		var fields struct {
			ContentIndex *int    `json:"contentIndex"`
			Delta        *string `json:"delta"`
		}
		if raw, err := json.Marshal(ev.AssistantEvent); err == nil && json.Unmarshal(raw, &fields) == nil {
			if fields.ContentIndex != nil {
				rec["contentIndex"] = *fields.ContentIndex
			}
			if fields.Delta != nil {
				rec["delta"] = *fields.Delta
			}
		}
		p.rec.out(rec)
	case *agentcore.MessageStartEvent:
		if ev.Message.Role() == "assistant" {
			p.rec.out(map[string]any{"type": ev.Type(), "message": map[string]any{"role": "assistant"}})
			return
		}
		p.rec.out(ev)
	default:
		p.rec.out(ev)
	}
}

// doActions performs a scripted action set.
func (p *player) doActions(a *Actions) {
	if a == nil {
		return
	}
	for _, s := range a.Steer {
		p.target.Steer(userText(s))
	}
	for _, f := range a.FollowUp {
		p.target.FollowUp(userText(f))
	}
	if a.Abort {
		p.target.Abort()
	}
}

// options builds the Agent's options from the scenario.
func (p *player) options() (agentcore.Options, error) {
	cfg := p.s.Agent
	msgs, err := decodeMessages(cfg.Messages)
	if err != nil {
		return agentcore.Options{}, err
	}
	tools, err := p.makeTools(cfg.Tools)
	if err != nil {
		return agentcore.Options{}, err
	}
	script, err := p.s.script()
	if err != nil {
		return agentcore.Options{}, err
	}
	responses := slices.Clone(script)
	for i := range responses {
		if actions := p.s.Model[i].Actions; actions != nil {
			responses[i].OnStart = func(context.Context) { p.doActions(actions) }
		}
	}
	p.fake = agentcoretest.New(responses...)
	opts := agentcore.Options{
		SystemPrompt:  cfg.SystemPrompt,
		Model:         cfg.Model.model(),
		ThinkingLevel: agentcore.ThinkingLevel(cfg.ThinkingLevel),
		Tools:         tools,
		Messages:      msgs,
		StreamFn:      p.stream,
		ToolExecution: agentcore.ToolExecutionMode(cfg.ToolExecution),
		SteeringMode:  agentcore.QueueMode(cfg.SteeringMode),
		FollowUpMode:  agentcore.QueueMode(cfg.FollowUpMode),
	}
	if err := p.installHooks(&opts.Hooks); err != nil {
		return agentcore.Options{}, err
	}
	return opts, nil
}

// stream records the request, then lets the fake answer it.
func (p *player) stream(ctx context.Context, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
	p.mu.Lock()
	p.requests++
	index := p.requests
	p.mu.Unlock()
	if p.rec.enabled {
		var reasoning, key any
		if opts.Reasoning != "" {
			reasoning = opts.Reasoning
		}
		if opts.APIKey != "" {
			key = opts.APIKey
		}
		p.rec.out(map[string]any{"type": "request", "index": index, "model": model.ID, "reasoning": reasoning, "apiKey": key, "messages": req.Messages})
	}
	return p.fake.Stream(ctx, model, req, opts)
}

// snapshot is a state record.
func (p *player) snapshot() map[string]any {
	st := p.agent.State()
	var errText any
	if st.ErrorMessage != "" {
		errText = st.ErrorMessage
	}
	pending := st.PendingToolCalls
	if pending == nil {
		pending = []string{}
	}
	msgs := st.Messages
	if msgs == nil {
		msgs = []agentcore.Message{}
	}
	return map[string]any{
		"type": "state", "systemPrompt": st.SystemPrompt, "thinkingLevel": st.ThinkingLevel,
		"model": st.Model.ID, "isStreaming": st.IsStreaming, "errorMessage": errText,
		"pendingToolCalls": pending, "hasQueued": p.agent.HasQueued(), "messages": msgs,
	}
}

// step runs one step; a failure is recorded as a step_error. A run that
// failed (a [agentcore.RunError]) is not one: the reference's prompt
// resolves, and the failure is in the trace's events.
func (p *player) step(ctx context.Context, i int, s Step, running *sync.WaitGroup) {
	fail := func(err error) {
		if _, ran := errors.AsType[*agentcore.RunError](err); err != nil && !ran {
			p.rec.out(map[string]any{"type": "step_error", "step": i, "error": err.Error()})
		}
	}
	background := func(run func() error) {
		if s.Wait != nil && !*s.Wait {
			running.Add(1)
			go func() {
				defer running.Done()
				fail(run())
			}()
			return
		}
		fail(run())
	}
	a := p.agent
	switch {
	case len(s.Prompt) > 0:
		prompt, err := p.promptInput(s.Prompt)
		if err != nil {
			fail(err)
			return
		}
		background(prompt)
	case s.Continue:
		background(func() error { return a.Continue(ctx) })
	case len(s.Steer) > 0:
		applier[agentcore.Message]{fail, a.Steer}.with(userMessage(s.Steer))
	case len(s.FollowUp) > 0:
		applier[agentcore.Message]{fail, a.FollowUp}.with(userMessage(s.FollowUp))
	case s.Abort:
		a.Abort()
	case s.WaitForIdle:
		fail(a.WaitForIdle(ctx))
	case s.SleepMs > 0:
		time.Sleep(time.Duration(s.SleepMs) * time.Millisecond)
	case s.Reset:
		fail(a.Reset())
	case s.SetTools != nil:
		applier[[]agentcore.Tool]{fail, a.SetTools}.with(p.makeTools(s.SetTools))
	case s.SetModel != nil:
		a.SetModel(s.SetModel.model())
	case s.SetThinkingLevel != "":
		a.SetThinkingLevel(agentcore.ThinkingLevel(s.SetThinkingLevel))
	case s.SetMessages != nil:
		applier[[]agentcore.Message]{fail, a.SetMessages}.with(decodeMessages(s.SetMessages))
	case len(s.AppendMessage) > 0:
		applier[agentcore.Message]{fail, p.appendMessage}.with(decodeMessage(s.AppendMessage))
	case s.SetSteeringMode != "":
		a.SetSteeringMode(agentcore.QueueMode(s.SetSteeringMode))
	case s.SetFollowUpMode != "":
		a.SetFollowUpMode(agentcore.QueueMode(s.SetFollowUpMode))
	case s.ClearQueues != "":
		switch s.ClearQueues {
		case "steering":
			a.ClearQueue(agentcore.SteeringQueue)
		case "followUp":
			a.ClearQueue(agentcore.FollowUpQueue)
		default:
			a.ClearQueue(agentcore.AllQueues)
		}
	case s.Peek:
		peek := a.PeekQueued()
		if peek == nil {
			peek = []agentcore.Message{}
		}
		p.rec.out(map[string]any{"type": "peek", "hasQueued": a.HasQueued(), "messages": peek})
	case s.State:
		p.rec.out(p.snapshot())
	}
}

// promptInput returns the prompt call for a prompt step: text, a message,
// or a list of messages.
func (p *player) promptInput(raw json.RawMessage) (func() error, error) {
	ctx := context.Background()
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return func() error { return p.agent.Prompt(ctx, text) }, nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		msgs, err := decodeMessages(list)
		if err != nil {
			return nil, err
		}
		return func() error { return p.agent.PromptMessages(ctx, msgs...) }, nil
	}
	m, err := decodeMessage(raw)
	if err != nil {
		return nil, err
	}
	return func() error { return p.agent.PromptMessages(ctx, m) }, nil
}

// applier applies a decoded step argument, or records the decoding failure.
type applier[T any] struct {
	fail  func(error)
	apply func(T)
}

func (ap applier[T]) with(v T, err error) {
	if err != nil {
		ap.fail(err)
		return
	}
	ap.apply(v)
}
