package structured

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/pi-go/agentcore"
)

// DefaultName is the name of the final-answer tool when [Options].Name is
// empty.
const DefaultName = "final_answer"

// DefaultDescription is the final-answer tool's description when
// [Options].Description is empty.
const DefaultDescription = "Give your final answer. Call this tool exactly once, when you are done, " +
	"with the answer as its arguments; the conversation ends with it."

// DefaultNudge is the message that asks a model which answered in prose
// to call the final-answer tool, when [Options].Nudge is empty; %s is the
// tool's name.
const DefaultNudge = "Do not answer in text. Call the %s tool with your answer as its arguments."

// DefaultRepair is the message that shows a model its invalid native
// answer; %s is the validator's words.
const DefaultRepair = "Your answer failed validation:\n%s\nAnswer again with only the corrected JSON."

// acceptedText is the content of an accepted answer's tool result.
const acceptedText = "Answer recorded."

// Options configures an [Answer]. The zero value means defaults: the
// native mode where the model is known to support it, else the tool
// final_answer; two repairs, one nudge, no partial values.
type Options[T any] struct {
	// Mode chooses between the final-answer tool and the provider's native
	// structured-output mode, per request, from the request's model; the
	// zero value is [ModeAuto]. See the package documentation's Native
	// modes section.
	Mode Mode
	// Name is the final-answer tool's name; empty means [DefaultName]. It
	// must not be the name of another tool of the run.
	Name string
	// Description tells the model what the tool is for; empty means
	// [DefaultDescription]. Describe the fields of T with jsonschema tags.
	Description string
	// Repairs is how many invalid answers (arguments, or a native
	// answer's text, that fail validation or decoding) go back to the
	// model, in the validator's words (the tool's error result, or for a
	// native answer a message of the layer, [DefaultRepair]), for another try. The run ends at the next
	// invalid answer with an [*Error] wrapping [ErrInvalidAnswer]. Zero
	// means 2; a negative value means none: the first invalid answer ends
	// the run.
	Repairs int
	// Nudges is how many times a model in the tool mode that ends its
	// turn without calling any tool (it answered in prose) is asked, with a message of the layer ([CustomType]), to
	// call the final-answer tool. The run ends at the next such turn with
	// an [*Error] wrapping [ErrNoAnswer]. Zero means 1; a negative value
	// means never.
	Nudges int
	// Nudge is the text of that message; empty means [DefaultNudge]
	// with the tool's name. A %s in it is not expanded.
	Nudge string
	// OnPartial, when not nil, receives the value the final-answer tool's
	// arguments (or a native answer's text) show while they stream, decoded into a fresh T of its own
	// (fields the model has not written yet are zero; the value is not
	// validated). It is called as a listener of the run (see
	// [agentcore.Listener]): on the run's goroutine, in event order, with
	// the run's ctx, and the run waits for it; a panic in it is a failing
	// listener's. It is called only when the value shown changed.
	OnPartial func(ctx context.Context, partial T)
}

// Answer is a typed final answer for the runs of an Agent (or of
// [agentcore.RunLoop]): a [agentcore.Layer] that offers the model a tool
// whose arguments are a T, ends the run when the model calls it with
// valid arguments, repairs invalid ones and asks a model that answers in
// prose to call it. [Answer.Prompt] runs a prompt and returns the T;
// [Answer.Result] finds it in the messages of a run. An Answer holds no
// run state: one may serve any number of Agents and concurrent RunLoop
// runs.
type Answer[T any] struct {
	name    string
	mode    Mode
	format  *agentcore.ResponseFormat // the native modes' request, read-only
	tool    agentcore.Tool
	decl    agentcore.ToolDeclaration
	err     error // what makes T unusable, from the tool's validation
	repairs int
	nudges  int
	nudge   string
	partial func(context.Context, T)
}

// New returns the typed answer for T, whose JSON Schema, reflected as
// [agentcore.NewTool] reflects a tool's arguments, is the final-answer
// tool's parameters. T must be a struct (or a pointer to one) that JSON
// Schema can describe; otherwise every run with the layer fails before its
// first request, with the error [agentcore.Tool.Validate] gives (wrapping
// [agentcore.ErrInvalidTool]), and Prompt returns it without starting one.
func New[T any](opts Options[T]) *Answer[T] {
	a := &Answer[T]{name: opts.Name, mode: opts.Mode, repairs: opts.Repairs, nudges: opts.Nudges, nudge: opts.Nudge, partial: opts.OnPartial}
	if a.name == "" {
		a.name = DefaultName
	}
	desc := opts.Description
	if desc == "" {
		desc = DefaultDescription
	}
	if a.repairs == 0 {
		a.repairs = 2
	}
	if a.nudges == 0 {
		a.nudges = 1
	}
	if a.nudge == "" {
		a.nudge = fmt.Sprintf(DefaultNudge, a.name)
	}
	a.tool = agentcore.NewTool(a.name, desc, func(_ context.Context, _ string, v T, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		r := agentcore.TextResult(acceptedText)
		r.Details, r.Terminate = v, true
		return r, nil
	})
	a.err = a.tool.Validate()
	a.decl = a.tool.Declaration()
	sch, strict := nativeSchema(a.decl.Parameters)
	a.format = &agentcore.ResponseFormat{Name: a.name, Schema: sch, Strict: strict}
	return a
}

// Name returns the final-answer tool's name.
func (a *Answer[T]) Name() string { return a.name }

// Tool returns the final-answer tool. The layer offers it to every run by
// itself; a program lists it among its own tools only to have it
// declared in the transcript from the start (or to run it elsewhere). Its
// result's Details hold the accepted T; its Terminate ends the run.
func (a *Answer[T]) Tool() agentcore.Tool { return a.tool }

// Install adds the layer's hooks, its stream function wrapper, its run
// wrapper and its listeners. On an Agent they act only on the runs that
// ask for the answer ([Answer.Ask]; Prompt and PromptMessages ask), under
// [agentcore.RunLoop] and without an Agent on every run: PrepareRequest
// offers the tool (in the tool mode), the stream function wrapper sets the
// response format (in the native mode), FinishTurn ends the run at an
// accepted answer or past a bound, PrepareNextTurn sends the nudge or the
// repair (a message of [CustomType]), ConvertToLLM shows the model those
// messages as user messages, the run wrapper fails a run that ended
// without an answer with an [*Error], and with [Options].OnPartial a
// listener follows the answer as it streams.
func (a *Answer[T]) Install(s *agentcore.Setup) {
	sc := scope[T]{a: a, scoped: s.Agent() != nil}
	s.AddHooks(agentcore.Hooks{
		ConvertToLLM: convertToLLM,
		PrepareRequest: func(ctx context.Context, req agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
			if !sc.acts(ctx) {
				return nil, nil
			}
			return a.prepareRequest(ctx, req)
		},
		FinishTurn: func(ctx context.Context, turn agentcore.TurnContext) (agentcore.TurnDecision, error) {
			if !sc.acts(ctx) {
				return agentcore.TurnDefault, nil
			}
			return a.finishTurn(ctx, turn)
		},
		PrepareNextTurn: func(ctx context.Context, turn agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
			if !sc.acts(ctx) {
				return nil, nil
			}
			return a.prepareNextTurn(ctx, turn)
		},
	})
	s.WrapStreamFn(func(next agentcore.StreamFn) agentcore.StreamFn {
		wrapped := a.wrapStreamFn(next)
		return func(ctx context.Context, model agentcore.Model, req agentcore.Request, so agentcore.StreamOptions) agentcore.AssistantStream {
			if !sc.acts(ctx) {
				return next(ctx, model, req, so)
			}
			return wrapped(ctx, model, req, so)
		}
	})
	if sc.scoped {
		s.WrapRun(sc.wrapRun)
		s.Subscribe(sc.listen)
	}
	if a.partial != nil {
		p := newPartials(a)
		s.Subscribe(func(ctx context.Context, ev agentcore.AgentEvent) {
			if sc.acts(ctx) {
				p.listen(ctx, ev)
			}
		})
	}
}

// prepareRequest adds the final-answer tool to the run's working context
// when the request's model is in the tool mode and the tool is not among
// the run's tools: executable, and declared to the
// model by a system message at the end of the working context. The
// Agent's transcript is not changed (the working context is the run's);
// the declaration stays in the working context for the run's later
// requests.
func (a *Answer[T]) prepareRequest(_ context.Context, req agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
	if a.err != nil {
		return nil, a.err
	}
	if a.native(req.Model.API, req.Model.Provider, req.Model.ID) {
		return nil, nil
	}
	for _, t := range req.Context.Tools {
		if t.Name == a.name {
			return nil, nil
		}
	}
	declare := &agentcore.SystemMessage{Content: agentcore.Text(""), ToolsAdded: []agentcore.ToolDeclaration{a.decl}}
	return &agentcore.RequestUpdate{Context: &agentcore.AgentContext{
		Messages: append(req.Context.Messages, declare),
		Tools:    append(req.Context.Tools, a.tool),
	}}, nil
}

// finishTurn ends the run once an answer was accepted, or when the turn
// was an invalid answer or a prose answer past its bound; it asks for one
// more turn after a prose answer within the bound.
func (a *Answer[T]) finishTurn(_ context.Context, turn agentcore.TurnContext) (agentcore.TurnDecision, error) {
	switch a.judge(turn) {
	case verdictAccepted, verdictGiveUp:
		return agentcore.TurnEnd, nil
	case verdictNudge, verdictRepair:
		return agentcore.TurnContinue, nil
	}
	return agentcore.TurnDefault, nil
}

// prepareNextTurn sends the nudge after a prose answer, or the
// validator's words after an invalid native answer, within the bound: a
// message of the layer ([CustomType]), which the model reads as a user
// message.
func (a *Answer[T]) prepareNextTurn(_ context.Context, turn agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
	text := a.nudge
	switch a.judge(turn) {
	case verdictNudge:
	case verdictRepair:
		text = fmt.Sprintf(DefaultRepair, a.tally(turn.NewMessages).problem)
	default:
		return nil, nil
	}
	return &agentcore.TurnUpdate{Messages: []agentcore.Message{layerMessage(text)}}, nil
}

// verdict is what a finished turn means for the answer.
type verdict int

const (
	verdictNone     verdict = iota // the run goes on as it would
	verdictAccepted                // the turn holds an accepted answer
	verdictNudge                   // prose, within the bound: ask for the tool
	verdictRepair                  // an invalid native answer, within the bound
	verdictGiveUp                  // invalid or prose past the bound: end
)

// judge decides a finished turn from the run's messages alone, so the
// hooks keep no state and give the same answers when a run is replayed.
func (a *Answer[T]) judge(turn agentcore.TurnContext) verdict {
	msg := turn.Message
	if msg == nil || msg.StopReason.Failed() {
		return verdictNone
	}
	t := a.tally(turn.NewMessages)
	switch {
	case t.accepted != nil || t.native != nil:
		return verdictAccepted
	case a.nativeMessage(msg):
		if a.repairs < 0 || t.invalid > a.repairs {
			return verdictGiveUp
		}
		return verdictRepair
	case len(msg.ToolCalls()) == 0:
		if t.prose > a.nudges { // a negative bound: at the first
			return verdictGiveUp
		}
		return verdictNudge
	case a.calledBy(msg) && t.invalidCall != "" && (a.repairs < 0 || t.invalid > a.repairs):
		return verdictGiveUp
	}
	return verdictNone
}

// calledBy reports whether msg calls the final-answer tool.
func (a *Answer[T]) calledBy(msg *agentcore.AssistantMessage) bool {
	for _, c := range msg.ToolCalls() {
		if c.Name == a.name {
			return true
		}
	}
	return false
}

// tally is what a run's messages say about its answers.
type tally struct {
	// accepted is the last accepted call's result, or native the last
	// accepted native answer's validated JSON: the later one is set.
	accepted *agentcore.ToolResultMessage
	native   json.RawMessage
	invalid  int // invalid answers, calls or native
	// problem is the validator's words about the last invalid answer;
	// invalidCall is its call's ID, or invalidText its native text.
	problem     string
	invalidCall string
	invalidText *agentcore.AssistantMessage
	prose       int // successful turns that called no tool, in the tool mode
	last        *agentcore.AssistantMessage
}

// tally reads the run's messages.
func (a *Answer[T]) tally(messages []agentcore.Message) tally {
	var t tally
	for _, m := range messages {
		switch m := m.(type) {
		case *agentcore.AssistantMessage:
			t.last = m
			switch {
			case a.nativeMessage(m):
				raw, err := a.checkText(m.Text())
				if err != nil {
					t.invalid++
					t.problem, t.invalidCall, t.invalidText = err.Error(), "", m
				} else {
					t.accepted, t.native = nil, raw
				}
			case !m.StopReason.Failed() && len(m.ToolCalls()) == 0:
				t.prose++
			}
		case *agentcore.ToolResultMessage:
			if m.ToolName != a.name {
				continue
			}
			if m.IsError {
				t.invalid++
				t.problem, t.invalidCall, t.invalidText = m.Text(), m.ToolCallID, nil
			} else {
				t.accepted, t.native = m, nil
			}
		}
	}
	return t
}

// decode returns the value of an accepted answer's result, a T of the
// caller's own: decoded from the JSON of its Details (the T the tool set
// in a live run, whose slices and maps the transcript keeps; raw JSON in a
// decoded transcript).
func (a *Answer[T]) decode(r *agentcore.ToolResultMessage) (T, error) {
	raw, ok := r.Details.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(r.Details); err != nil {
			var zero T
			return zero, fmt.Errorf("structured: the answer's details: %w", err)
		}
	}
	return agentcore.DecodeArgs[T](raw)
}
