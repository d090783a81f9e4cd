// Package agentcoretest provides a scripted fake model for testing code
// built on agentcore, in the manner of net/http/httptest: no network, no key,
// deterministic answers.
//
// A [Fake] answers each model request with the next scripted [Response] (or
// with what a responder function returns), streams it as a real provider
// would (start, per-block start/delta/end events, done or error), records
// every request it saw, and honors abort: a cancelled ctx ends the response
// with stopReason "aborted" and errorMessage "Request was aborted".
//
//	fake := agentcoretest.New(
//		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "read", map[string]any{"path": "a.txt"})),
//		agentcoretest.TextResponse("done"),
//	)
//	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: tools})
package agentcoretest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
)

// ErrNoResponse is the error text of a request past the end of the script.
const ErrNoResponse = "fake model: no scripted response"

// AbortedText is the errorMessage of an aborted response.
const AbortedText = "Request was aborted"

// Response is one scripted model response.
type Response struct {
	// Content is streamed block by block: text, thinking and tool calls.
	Content []agentcore.ContentBlock
	// StopReason defaults to "stop", or "toolUse" when Content holds a
	// tool call.
	StopReason agentcore.StopReason
	// ErrorMessage is the error text of an "error" or "aborted" response;
	// empty means "fake model error".
	ErrorMessage string
	// Usage is reported on the final message.
	Usage agentcore.Usage
	// Chunks splits each text and thinking block into that many deltas
	// (at most one per character); zero means one.
	Chunks int
	// ChunkDelay is slept before every content event, honoring ctx.
	ChunkDelay time.Duration
	// Hang, after the content, waits for the request to be aborted.
	Hang bool
	// NoStart makes a failing response fail before its start event.
	NoStart bool
	// OnStart, optional, runs when the response starts streaming, before
	// any event; tests use it to steer or abort at that moment.
	OnStart func(ctx context.Context)
}

// Call is one request the fake received.
type Call struct {
	// Index counts requests from 1.
	Index int
	// Model, Request and Options are what the stream function was given.
	Model   agentcore.Model
	Request agentcore.Request
	Options agentcore.StreamOptions
}

// Fake is a scripted model. It is safe for concurrent use.
type Fake struct {
	mu        sync.Mutex
	responses []Response
	respond   func(ctx context.Context, call Call) Response
	calls     []Call
	canonical atomic.Pointer[map[string]string] // CanonicalJSON of tool call arguments seen
}

// New returns a fake that answers requests with responses, in order. A
// request past the end fails with [ErrNoResponse] before its start event.
func New(responses ...Response) *Fake {
	return &Fake{responses: slices.Clone(responses)}
}

// NewFunc returns a fake that asks respond for each response. respond runs
// on the goroutine that consumes the stream.
func NewFunc(respond func(ctx context.Context, call Call) Response) *Fake {
	return &Fake{respond: respond}
}

// Append adds responses to the end of the script.
func (f *Fake) Append(responses ...Response) {
	f.mu.Lock()
	f.responses = append(f.responses, responses...)
	f.mu.Unlock()
}

// Calls returns the requests seen so far, in order.
func (f *Fake) Calls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// CallCount returns how many requests the fake has seen.
func (f *Fake) CallCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

// Stream is the fake's [agentcore.StreamFn]: pass f.Stream.
func (f *Fake) Stream(ctx context.Context, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
	f.mu.Lock()
	if f.calls == nil && f.respond == nil {
		// A script's requests are known in advance: one record each.
		f.calls = make([]Call, 0, len(f.responses)+1)
	}
	f.calls = append(f.calls, Call{Index: len(f.calls) + 1, Model: model, Request: req, Options: opts})
	// Records are never changed once appended: the stream reads its own.
	call := &f.calls[len(f.calls)-1]
	respond := f.respond
	resp := &noResponse
	if respond == nil && call.Index <= len(f.responses) {
		resp = &f.responses[call.Index-1]
	}
	f.mu.Unlock()
	if respond != nil {
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			r := respond(ctx, *call)
			f.play(ctx, w, call.Model, &r)
		})
	}
	return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
		f.play(ctx, w, call.Model, resp)
	})
}

// noResponse answers a request past the end of a script.
var noResponse = Response{StopReason: agentcore.StopError, ErrorMessage: ErrNoResponse, NoStart: true}

// canonicalArgs is CanonicalJSON of args, remembered per fake: a script
// tends to repeat its arguments. The memo is copied on write, so that a
// lookup takes no lock.
func (f *Fake) canonicalArgs(args json.RawMessage) string {
	memo := f.canonical.Load()
	if memo != nil {
		if text, ok := (*memo)[string(args)]; ok {
			return text
		}
	}
	text := CanonicalJSON(args)
	f.mu.Lock()
	defer f.mu.Unlock()
	grown := map[string]string{}
	if memo = f.canonical.Load(); memo != nil {
		if len(*memo) >= 1024 {
			return text
		}
		grown = maps.Clone(*memo)
	}
	grown[string(args)] = text
	f.canonical.Store(&grown)
	return text
}

// play streams resp.
func (f *Fake) play(ctx context.Context, w *agentcore.StreamWriter, model agentcore.Model, resp *Response) {
	msg := &agentcore.AssistantMessage{
		Content: make([]agentcore.ContentBlock, 0, len(resp.Content)), API: model.API, Provider: model.Provider, Model: model.ID,
		Usage: resp.Usage, StopReason: agentcore.StopStop, Timestamp: time.Now().UnixMilli(),
	}
	if resp.OnStart != nil {
		resp.OnStart(ctx)
	}
	aborted := func() bool {
		msg.StopReason, msg.ErrorMessage = agentcore.StopAborted, AbortedText
		return w.Error(msg)
	}
	if ctx.Err() != nil {
		msg.Content = []agentcore.ContentBlock{}
		aborted()
		return
	}
	reason := resp.StopReason
	if reason == "" {
		reason = agentcore.StopStop
		for _, b := range resp.Content {
			if _, ok := b.(agentcore.ToolCall); ok {
				reason = agentcore.StopToolUse
			}
		}
	}
	failing := reason == agentcore.StopError || reason == agentcore.StopAborted
	if !(failing && resp.NoStart) {
		if !w.Push(&agentcore.StartEvent{Partial: msg}) {
			return
		}
		for _, block := range resp.Content {
			if !f.streamBlock(ctx, w, msg, block, resp) {
				if ctx.Err() != nil {
					aborted()
				}
				return
			}
		}
		if resp.Hang {
			<-ctx.Done()
			aborted()
			return
		}
	}
	msg.StopReason = reason
	if failing {
		msg.ErrorMessage = resp.ErrorMessage
		if msg.ErrorMessage == "" {
			msg.ErrorMessage = "fake model error"
		}
		w.Error(msg)
		return
	}
	w.Done(msg)
}

// pause sleeps d unless ctx ends first; it reports whether to go on.
func pause(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// emptyObject is the arguments of a tool call before they stream.
var emptyObject = json.RawMessage("{}")

// streamBlock streams one content block into msg. The partials end with
// the scripted block itself, so that the last delta and the end event show
// the same block.
func (f *Fake) streamBlock(ctx context.Context, w *agentcore.StreamWriter, msg *agentcore.AssistantMessage, block agentcore.ContentBlock, resp *Response) bool {
	i := len(msg.Content)
	step := func(ev agentcore.AssistantEvent) bool {
		return pause(ctx, resp.ChunkDelay) && w.Push(ev)
	}
	switch b := block.(type) {
	case agentcore.TextBlock:
		return f.streamText(ctx, w, msg, resp, block, b.Text, b.TextSignature == "", &textKind)
	case agentcore.ThinkingBlock:
		return f.streamText(ctx, w, msg, resp, block, b.Thinking, b.ThinkingSignature == "" && !b.Redacted, &thinkingKind)
	case agentcore.ToolCall:
		msg.Content = append(msg.Content, agentcore.ToolCall{ID: b.ID, Name: b.Name, Arguments: emptyObject})
		if !step(&agentcore.ToolCallStartEvent{ContentIndex: i, Partial: msg}) {
			return false
		}
		if len(b.Arguments) == 0 {
			b.Arguments = emptyObject
			block = b
		}
		// The arguments arrive in one delta, so the partial shows them whole.
		if b.ThoughtSignature == "" && b.Namespace == "" && b.ArgumentsError == "" {
			msg.Content[i] = block
		} else {
			msg.Content[i] = agentcore.ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Arguments}
		}
		if !pause(ctx, resp.ChunkDelay) || !w.ToolCallDelta(i, f.canonicalArgs(b.Arguments), msg) {
			return false
		}
		msg.Content[i] = block
		return step(&agentcore.ToolCallEndEvent{ContentIndex: i, ToolCall: b, Partial: msg})
	default:
		msg.Content = append(msg.Content, block)
		return true
	}
}

// textLike is what differs between streaming a text and a thinking block:
// the block holding some text (none yet: empty), the writer's delta, and
// the start and end events of block i whose whole text is text.
type textLike struct {
	empty   agentcore.ContentBlock // the block without text, boxed once
	partial func(text string) agentcore.ContentBlock
	delta   func(w *agentcore.StreamWriter, i int, delta string, partial *agentcore.AssistantMessage) bool
	events  func(i int, text string, partial *agentcore.AssistantMessage) (start, end agentcore.AssistantEvent)
}

var (
	textKind     = textLike{agentcore.TextBlock{}, textBlock, (*agentcore.StreamWriter).TextDelta, textEvents}
	thinkingKind = textLike{agentcore.ThinkingBlock{}, thinkingBlock, (*agentcore.StreamWriter).ThinkingDelta, thinkingEvents}
)

func textBlock(text string) agentcore.ContentBlock { return agentcore.TextBlock{Text: text} }
func thinkingBlock(text string) agentcore.ContentBlock {
	return agentcore.ThinkingBlock{Thinking: text}
}

func textEvents(i int, text string, p *agentcore.AssistantMessage) (start, end agentcore.AssistantEvent) {
	return &agentcore.TextStartEvent{ContentIndex: i, Partial: p}, &agentcore.TextEndEvent{ContentIndex: i, Content: text, Partial: p}
}

func thinkingEvents(i int, text string, p *agentcore.AssistantMessage) (start, end agentcore.AssistantEvent) {
	return &agentcore.ThinkingStartEvent{ContentIndex: i, Partial: p}, &agentcore.ThinkingEndEvent{ContentIndex: i, Content: text, Partial: p}
}

// streamText streams a text or thinking block holding text: start, a delta
// per chunk (the partial showing the text so far), end. block is the
// scripted block; when whole (no signature), the last delta shows it as it
// is, so that the end event shows the same block.
func (f *Fake) streamText(ctx context.Context, w *agentcore.StreamWriter, msg *agentcore.AssistantMessage, resp *Response,
	block agentcore.ContentBlock, text string, whole bool, k *textLike) bool {
	i := len(msg.Content)
	msg.Content = append(msg.Content, k.empty)
	start, end := k.events(i, text, msg)
	if !pause(ctx, resp.ChunkDelay) || !w.Push(start) {
		return false
	}
	ok := eachChunk(text, resp.Chunks, func(piece string, end int) bool {
		if end == len(text) && whole {
			msg.Content[i] = block
		} else {
			msg.Content[i] = k.partial(text[:end])
		}
		return pause(ctx, resp.ChunkDelay) && k.delta(w, i, piece, msg)
	})
	msg.Content[i] = block
	return ok && pause(ctx, resp.ChunkDelay) && w.Push(end)
}

// eachChunk calls yield with the pieces [SplitText] would return, and the
// end offset of each in text, until yield returns false; it reports
// whether every piece was taken.
func eachChunk(text string, chunks int, yield func(piece string, end int) bool) bool {
	ascii := isASCII(text)
	n := len(text)
	if !ascii {
		n = utf8.RuneCountInString(text)
	}
	if n == 0 {
		return true
	}
	parts := max(1, min(chunks, n))
	size := (n + parts - 1) / parts
	if ascii {
		// A character is a byte.
		for start := 0; start < len(text); start += size {
			end := min(start+size, len(text))
			if !yield(text[start:end], end) {
				return false
			}
		}
		return true
	}
	start, count := 0, 0
	for i := range text {
		if count == size {
			if !yield(text[start:i], i) {
				return false
			}
			start, count = i, 0
		}
		count++
	}
	return yield(text[start:], len(text))
}

// isASCII reports whether s is ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// SplitText splits text into min(chunks, length) consecutive pieces of
// ceil(length/n) characters; none for empty text.
func SplitText(text string, chunks int) []string {
	var out []string
	eachChunk(text, chunks, func(piece string, _ int) bool {
		out = append(out, piece)
		return true
	})
	return out
}

// CanonicalJSON returns data compact, object keys sorted, without HTML
// escaping: how a JavaScript object with sorted keys prints. Invalid JSON
// comes back unchanged.
func CanonicalJSON(data json.RawMessage) string {
	if len(data) == 0 {
		return "{}"
	}
	if isCanonical(data) {
		return string(data)
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		return string(data)
	}
	return string(appendSorted(make([]byte, 0, len(data)), v))
}

// appendSorted writes v with the members of every object sorted by key.
func appendSorted(dst []byte, v jsonv.Value) []byte {
	switch v.Kind() {
	case jsonv.Array:
		dst = append(dst, '[')
		for i, item := range v.Items() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendSorted(dst, item)
		}
		return append(dst, ']')
	case jsonv.Object:
		members := slices.Clone(v.Members())
		slices.SortFunc(members, func(a, b jsonv.Member) int { return strings.Compare(a.Key, b.Key) })
		dst = append(dst, '{')
		for i, m := range members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonv.AppendQuote(dst, m.Key)
			dst = append(dst, ':')
			dst = appendSorted(dst, m.Value)
		}
		return append(dst, '}')
	}
	return v.AppendJSON(dst)
}

// MarshalJS marshals v compactly without HTML escaping (maps sort their
// keys), as JSON.stringify would print it.
func MarshalJS(v any) string {
	var buf jsonBuffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%q", err.Error())
	}
	b := buf.b
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	return string(b)
}

// jsonBuffer is an io.Writer that appends to b.
type jsonBuffer struct{ b []byte }

// Write appends p.
func (j *jsonBuffer) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }

// isCanonical reports whether data is already compact JSON with sorted
// object keys and no escapes that JavaScript would print differently; it
// answers false when unsure.
func isCanonical(data []byte) bool {
	type frame struct {
		object  bool
		lastKey []byte
		wantKey bool
	}
	var stack []frame
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			return false
		case '{':
			stack = append(stack, frame{object: true, wantKey: true})
		case '[':
			stack = append(stack, frame{})
		case '}', ']':
			if len(stack) == 0 {
				return false
			}
			stack = stack[:len(stack)-1]
		case ',':
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].wantKey = true
			}
		case '"':
			j := i + 1
			for ; j < len(data) && data[j] != '"'; j++ {
				if data[j] == '\\' || data[j] < 0x20 || data[j] >= 0x80 {
					return false
				}
			}
			if j >= len(data) {
				return false
			}
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
				key := data[i+1 : j]
				if stack[n-1].lastKey != nil && string(key) <= string(stack[n-1].lastKey) {
					return false
				}
				stack[n-1].lastKey, stack[n-1].wantKey = key, false
			}
			i = j
		case '.', 'e', 'E':
			return false
		}
	}
	return len(stack) == 0
}
