package agui

import (
	"bytes"
	"container/list"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/session"
)

// DefaultMaxRequestBytes is the request body limit of a [Handler] whose
// MaxRequestBytes is zero.
const DefaultMaxRequestBytes = 8 << 20

// DefaultMaxThreads is the bound on held threads of a [Handler] whose
// MaxThreads is zero.
const DefaultMaxThreads = 1000

// DefaultIdleTimeout is the idle expiry of a [Handler] whose IdleTimeout
// is zero.
const DefaultIdleTimeout = time.Hour

// DefaultWriteIdleTimeout is the per-write deadline of a [Handler] whose
// WriteIdleTimeout is zero.
const DefaultWriteIdleTimeout = 30 * time.Second

// InternalErrorText is all a client is told of a panic in a hook: the
// error field of a 500 answer. The detail goes to [Options.OnError].
const InternalErrorText = "agui: internal error"

// ErrPanic marks the errors [Options.OnError] receives for a recovered
// panic of a hook.
var ErrPanic = errors.New("agui: panic")

// ErrNoAgent is the error of a request to a [Handler] without
// [Options.NewAgent] (answered with 500).
var ErrNoAgent = errors.New("agui: no NewAgent: the handler cannot make an agent")

// HTTPError is an error with the HTTP status a [Handler] answers with,
// for [Options.NewAgent] and [Options.Prepare] to choose it.
type HTTPError struct {
	// Status is the HTTP status code, 4xx or 5xx.
	Status int
	// Message is the text of the answer's "error" field.
	Message string
}

// Error returns the message.
func (e *HTTPError) Error() string { return e.Message }

// Options configure [New].
type Options struct {
	// NewAgent returns the options of the Agent of a thread the handler
	// does not hold yet: the model, stream function, system prompt, server
	// tools and hooks, and in Messages a transcript the program stored
	// (see OnTranscript). It is called on the request's goroutine, once
	// per thread, with the request's ctx and the decoded input; in is the
	// handler's, read-only. An error refuses the request with 500 (or the
	// status of an [*HTTPError]) and the error's text. The options' Layers
	// (compaction, tracing, the program's own) are the thread Agent's: the
	// handler adds a layer of its own after them, whose FinishTurn ends a
	// run that called a front-end tool, and sets the Agent's tools before
	// each run (the program's tools plus the client's front-end tools).
	// The first [hold.Gate] among the Layers makes the calls it holds
	// AG-UI interrupts (see the package documentation's Interrupts
	// section). A nil NewAgent fails every request with 500
	// ([ErrNoAgent]).
	NewAgent func(ctx context.Context, in *RunInput) (agentcore.Options, error)

	// Prepare, when not nil, decides whether a decoded request may run, on
	// the request's goroutine, before its thread is looked up: check
	// authorization (r's headers), the thread ID, the front-end tools. An
	// error refuses the request with 403 (or the status of an
	// [*HTTPError]) and the error's text.
	Prepare func(r *http.Request, in *RunInput) error

	// OnTranscript, when not nil, is called after every run with the
	// thread's ID and its whole transcript, for the program to store it;
	// NewAgent restores it. It runs on the request's goroutine before
	// ServeHTTP returns, also after a run its client left; messages is a
	// copy it may keep (the messages are shared: do not modify them).
	OnTranscript func(threadID string, messages []agentcore.Message)

	// MaxRequestBytes caps the request body; zero means
	// [DefaultMaxRequestBytes]. A larger body is refused with 413.
	MaxRequestBytes int64

	// WriteIdleTimeout bounds each write of the answer, as
	// [agentcore.ProxyHandlerOptions].WriteIdleTimeout does: a client that
	// stops reading longer than this aborts its run. Zero means
	// [DefaultWriteIdleTimeout]; negative means no deadline.
	WriteIdleTimeout time.Duration

	// MaxThreads bounds the threads the handler holds. Zero means
	// [DefaultMaxThreads]; negative means no bound. To hold a new thread
	// at the bound, the handler drops the thread idle the longest (see
	// OnDrop); when every thread it holds is running, a request for a new
	// thread is refused with 503.
	MaxThreads int

	// IdleTimeout is how long a thread may go without a request before
	// the handler drops it (see OnDrop); a running thread is never idle.
	// Zero means [DefaultIdleTimeout]; negative means never. Expired
	// threads are dropped when the handler serves its next request.
	IdleTimeout time.Duration

	// OnDrop, when not nil, is told the ID of each thread the handler
	// drops to keep within MaxThreads or IdleTimeout ([Handler.Forget]
	// does not call it). It is called on the goroutine of the request
	// that made the handler drop the thread, before that request runs,
	// without the handler's locks held. The thread's next request makes a
	// new Agent with NewAgent, which restores what OnTranscript stored.
	OnDrop func(threadID string)

	// SessionDir, when not "", keeps each thread in a pi session file in
	// this folder (made when missing), so that a restarted server (or
	// another one sharing the folder) resumes the thread where it was,
	// with the message IDs its client holds and its pending interrupts:
	// see the package documentation's Session files section. The file is
	// open only while a request of its thread runs.
	SessionDir string

	// SessionOptions configure the session files of SessionDir (Sync,
	// Registry, Now, ...); their ID, ParentSession and ReadOnly are the
	// handler's. Nil means the defaults.
	SessionOptions *session.Options

	// OnError, when not nil, is told what the handler keeps from its
	// clients or has no client to tell: a panic of a hook (err wraps
	// [ErrPanic]) and a failed write of the answer (a client that went
	// away). It is called on the request's goroutine, before ServeHTTP
	// returns; err is OnError's to keep. It must not write to the
	// response.
	OnError func(r *http.Request, err error)
}

// Handler serves agentcore Agents to AG-UI clients: see the package
// documentation. It is safe for concurrent use.
type Handler struct {
	opts     Options
	sessions *sessions // nil without SessionDir

	mu      sync.Mutex
	threads map[string]*thread
	idle    list.List // of *thread: the threads not running, least recently used first
}

// New returns a handler configured by opts.
func New(opts Options) *Handler {
	if opts.MaxRequestBytes <= 0 {
		opts.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if opts.WriteIdleTimeout == 0 {
		opts.WriteIdleTimeout = DefaultWriteIdleTimeout
	}
	if opts.MaxThreads == 0 {
		opts.MaxThreads = DefaultMaxThreads
	}
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	return &Handler{opts: opts, threads: map[string]*thread{}, sessions: newSessions(opts.SessionDir, opts.SessionOptions)}
}

// Agent returns the Agent of a thread the handler holds, or nil. The
// program may steer it, queue follow-ups or abort its run; it must not
// start runs of its own on it.
func (h *Handler) Agent(threadID string) *agentcore.Agent {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t := h.threads[threadID]; t != nil {
		return t.agent
	}
	return nil
}

// Forget drops a thread the handler holds, unless it is running; it
// reports whether the thread is gone. The thread's next request makes a
// new Agent with NewAgent.
func (h *Handler) Forget(threadID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.threads[threadID]
	if t == nil {
		return true
	}
	if !t.mu.TryLock() {
		return false
	}
	defer t.mu.Unlock()
	h.remove(t)
	return true
}

// ServeHTTP answers one RunAgentInput with a run's events.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, "method not allowed: use POST")
		return
	}
	in, msgs, status, err := h.decode(w, r)
	if err != nil {
		writeError(w, status, err.Error())
		return
	}
	if h.opts.Prepare != nil {
		if err := h.guard("Prepare", func() error { return h.opts.Prepare(r, in) }); err != nil {
			h.refuse(w, r, err, http.StatusForbidden)
			return
		}
	}
	if err := checkTools(r.Context(), in.Tools); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	t, made, err := h.thread(r, in, msgs)
	if err != nil {
		h.refuse(w, r, err, http.StatusInternalServerError)
		return
	}
	defer h.release(t)
	if len(in.Resume) > 0 && t.gate == nil {
		err = fmt.Errorf("%w: resume: this agent raises no interrupts", ErrBadInput)
	}
	var ds []hold.Decision
	if err == nil && t.gate != nil {
		if ds, err = decisions(t.gate, in.Resume); err != nil {
			h.drop(t, made)
			h.refuseRun(w, r, in, err)
			return
		}
	}
	var tools []agentcore.Tool
	if err == nil {
		tools, err = t.tools(in.Tools)
	}
	if err == nil {
		var p plan
		if p, err = t.prepare(msgs, len(in.Resume) > 0); err == nil {
			if err := t.decide(ds); err != nil {
				h.drop(t, made)
				h.refuseRun(w, r, in, err)
				return
			}
			if p.apply != nil {
				p.apply()
			}
			t.agent.SetTools(tools)
			h.run(w, r, t, in, msgs, p)
			return
		}
	}
	h.drop(t, made)
	writeError(w, http.StatusBadRequest, err.Error())
}

// drop removes the thread a refused request made: a refused request makes
// no thread.
func (h *Handler) drop(t *thread, made bool) {
	if made {
		h.mu.Lock()
		h.remove(t)
		h.mu.Unlock()
	}
}

// decode reads and decodes the request body; on failure it returns the
// status to answer with.
func (h *Handler) decode(w http.ResponseWriter, r *http.Request) (*RunInput, []wireMessage, int, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return nil, nil, http.StatusUnsupportedMediaType, fmt.Errorf("unsupported content type %q: send application/json", ct)
		}
	}
	var body bytes.Buffer
	_, err := body.ReadFrom(http.MaxBytesReader(w, r.Body, h.opts.MaxRequestBytes))
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return nil, nil, http.StatusRequestEntityTooLarge, fmt.Errorf("request body too large: the limit is %d bytes", h.opts.MaxRequestBytes)
	}
	if err != nil {
		return nil, nil, http.StatusBadRequest, fmt.Errorf("%w: %v", ErrBadInput, err)
	}
	in, msgs, err := decodeInput(body.Bytes())
	if err != nil {
		return nil, nil, http.StatusBadRequest, err
	}
	return in, msgs, 0, nil
}

// run streams the run p asks for; the thread is locked.
func (h *Handler) run(w http.ResponseWriter, r *http.Request, t *thread, in *RunInput, msgs []wireMessage, p plan) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	out, err := startAnswer(w, h.opts.WriteIdleTimeout, cancel)
	if err != nil {
		h.report(r, fmt.Errorf("agui: writing the answer: %w", err))
		return
	}
	rl := &relay{in: in, out: out, thread: t, view: newView(msgs), prompts: p.prompts}
	if t.gate != nil {
		for _, c := range t.gate.State().Calls {
			rl.resumed = append(rl.resumed, c.ID)
		}
	}
	ctx = context.WithValue(ctx, runKey{}, rl)
	rl.emit(runStarted{evRunStarted, in.ThreadID, in.RunID, in.ParentRunID})
	rl.sync(t.snapshot(append(t.agent.Messages(), p.prompts...)))
	unsubscribe := t.agent.Subscribe(rl.handle)
	if p.resume && len(p.prompts) == 0 {
		err = t.agent.Continue(ctx)
	} else {
		err = t.agent.PromptMessages(ctx, p.prompts...)
	}
	unsubscribe()
	if _, ok := errors.AsType[*agentcore.RunError](err); ok || err == nil || errors.Is(err, hold.ErrHeld) || rl.started {
		t.ran = true // else the run could not start and changed nothing
	}
	t.prune()
	rl.closeOpen()
	t.pending = rl.pendingCalls()
	rl.sync(t.snapshot(t.agent.Messages()))
	rl.emit(rl.finish(err))
	if werr := out.failure(); werr != nil {
		h.report(r, fmt.Errorf("agui: writing the answer: %w", werr))
	}
	if t.file != nil {
		if err := t.file.record(t); err != nil {
			h.report(r, err)
		}
	}
	if h.opts.OnTranscript != nil {
		if err := h.guard("OnTranscript", func() error {
			h.opts.OnTranscript(in.ThreadID, t.agent.Messages())
			return nil
		}); err != nil {
			h.report(r, err)
		}
	}
}

// finish is the event that ends a run whose Prompt or Continue returned
// err.
func (rl *relay) finish(err error) any {
	done := runFinished{Type: evRunFinished, ThreadID: rl.in.ThreadID, RunID: rl.in.RunID, Usage: rl.usage}
	var runErr *agentcore.RunError
	if held, ok := errors.AsType[*hold.HeldError](err); ok && len(held.Calls) > 0 {
		done.Outcome = &runOutcome{Type: "interrupt", Interrupts: interrupts(held.Calls)}
		return done
	}
	switch {
	case err == nil:
		done.Outcome = &runOutcome{Type: "success", PendingToolCallIDs: rl.pendingCalls()}
		return done
	case errors.As(err, &runErr) && runErr.Message != nil && runErr.Message.StopReason == agentcore.StopAborted:
		done.Outcome = &runOutcome{Type: "cancelled"}
		return done
	case errors.As(err, &runErr) && runErr.Message != nil && runErr.Message.ErrorMessage != "":
		return runError{Type: evRunError, Message: runErr.Message.ErrorMessage, Usage: rl.usage}
	}
	return runError{Type: evRunError, Message: err.Error(), Usage: rl.usage}
}

// refuseRun answers a request that breaks the interrupt contract with
// RUN_STARTED and RUN_ERROR {code: "interrupt"}, as AG-UI wants, having
// changed nothing.
func (h *Handler) refuseRun(w http.ResponseWriter, r *http.Request, in *RunInput, err error) {
	out, werr := startAnswer(w, h.opts.WriteIdleTimeout, func() {})
	if werr == nil {
		_ = out.write(runStarted{evRunStarted, in.ThreadID, in.RunID, in.ParentRunID})
		werr = out.write(runError{Type: evRunError, Message: strings.TrimPrefix(err.Error(), errInterrupt.Error()+": "), Code: codeInterrupt})
	}
	if werr != nil {
		h.report(r, fmt.Errorf("agui: writing the answer: %w", werr))
	}
}

// guard runs f and returns its error, or a panic of f as an error that
// wraps [ErrPanic] and names what panicked (where).
func (h *Handler) guard(where string, f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%w in %s: %v\n%s", ErrPanic, where, v, debug.Stack())
		}
	}()
	return f()
}

// refuse answers a request a hook refused with err: the status of an
// [*HTTPError], else fallback; a panic answers 500 with
// [InternalErrorText] after telling OnError.
func (h *Handler) refuse(w http.ResponseWriter, r *http.Request, err error, fallback int) {
	if errors.Is(err, ErrPanic) {
		h.report(r, err)
		writeError(w, http.StatusInternalServerError, InternalErrorText)
		return
	}
	status := fallback
	if errors.Is(err, ErrBadInput) {
		status = http.StatusBadRequest
	}
	if he, ok := errors.AsType[*HTTPError](err); ok && he.Status >= 400 && he.Status <= 599 {
		status = he.Status
	}
	writeError(w, status, err.Error())
}

// report tells OnError about err.
func (h *Handler) report(r *http.Request, err error) {
	if h.opts.OnError != nil {
		h.opts.OnError(r, err)
	}
}
