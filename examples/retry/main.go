// Command retry shows the retry policy a product builds above the Agent, the
// way the pi coding agent does. agentcore never retries: a failed model
// request ends the run with an assistant message whose stopReason is
// "error", and Prompt returns a *agentcore.RunError: the layer above decides.
// This one
//
//   - classifies the failure with agentcore.IsRetryable: a provider's
//     *agentcore.ProviderError (HTTP status) when the stream function gives
//     one, else the text, as pi-ai does (overloaded, rate limits, 5xx,
//     dropped connections are retryable; bad keys and exhausted quotas are
//     not);
//   - waits with exponential backoff, or the delay the provider asked for
//     (ProviderError.RetryAfter), honoring ctx (an abort during the wait
//     ends the retry);
//   - removes the failed reply from the Agent's transcript (SetMessages)
//     while keeping it in its own history, and calls Continue;
//   - excludes a failure it gave up on from later requests with
//     TransformContext, so the model never sees an empty error reply.
//
// Run it with
//
//	go run ./examples/retry
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

func main() {
	policy := Policy{MaxRetries: 3, BaseDelay: 200 * time.Millisecond, MaxDelay: 5 * time.Second}
	if err := run(context.Background(), os.Stdout, policy); err != nil {
		fmt.Fprintln(os.Stderr, "retry:", err)
		os.Exit(1)
	}
}

// Policy is how often and how patiently to retry.
type Policy struct {
	MaxRetries int
	BaseDelay  time.Duration
	MaxDelay   time.Duration
}

// Delay is the wait before retry number attempt (from 1): BaseDelay doubled
// for every earlier attempt, capped at MaxDelay.
func (p Policy) Delay(attempt int) time.Duration {
	d := p.BaseDelay << (attempt - 1)
	if d <= 0 || (p.MaxDelay > 0 && d > p.MaxDelay) {
		return p.MaxDelay
	}
	return d
}

// Session is the layer above the Agent: it keeps the complete history (a
// session file would; here a slice) and applies the retry policy after
// each run. The Agent's transcript is its working copy.
type Session struct {
	Agent   *agentcore.Agent
	Policy  Policy
	History []agentcore.Message
	Log     io.Writer
}

// NewSession wraps an Agent configured by opts.
func NewSession(opts agentcore.Options, policy Policy, log io.Writer) *Session {
	s := &Session{Policy: policy, Log: log}
	opts.TransformContext = withoutFailures
	s.Agent = agentcore.New(opts)
	s.History = s.Agent.Messages() // the leading system message is not an event
	s.Agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if end, ok := ev.(*agentcore.MessageEndEvent); ok {
			s.History = append(s.History, end.Message)
		}
	})
	return s
}

// withoutFailures drops failed replies from the view of a request: the
// model should not see an empty error answer it never gave.
func withoutFailures(_ context.Context, messages []agentcore.Message) ([]agentcore.Message, error) {
	out := make([]agentcore.Message, 0, len(messages))
	for _, m := range messages {
		if a, ok := m.(*agentcore.AssistantMessage); ok && a.StopReason == agentcore.StopError {
			continue
		}
		out = append(out, m)
	}
	return out, nil
}

// Prompt runs text, then retries the run while it failed retryably. It
// returns nil once a run succeeded; the run's *agentcore.RunError when it
// failed for good; the Agent's refusal (busy, no stream function); or ctx's
// error during a wait.
func (s *Session) Prompt(ctx context.Context, text string) error {
	err := s.Agent.Prompt(ctx, text)
	for attempt := 1; ; attempt++ {
		runErr, failed := errors.AsType[*agentcore.RunError](err)
		if !failed {
			return err // success, or the run did not start
		}
		reason := runErr.Message.ErrorMessage
		if !agentcore.IsRetryable(err) {
			fmt.Fprintf(s.Log, "  not retryable: %s\n", reason)
			return err
		}
		if attempt > s.Policy.MaxRetries {
			fmt.Fprintf(s.Log, "  giving up after %d retries: %s\n", s.Policy.MaxRetries, reason)
			return err
		}
		delay := s.Policy.Delay(attempt)
		if pe, ok := errors.AsType[*agentcore.ProviderError](err); ok && pe.RetryAfter > delay {
			delay = min(pe.RetryAfter, s.Policy.MaxDelay)
		}
		fmt.Fprintf(s.Log, "  retry %d/%d in %v: %s\n", attempt, s.Policy.MaxRetries, delay, reason)
		if err := sleep(ctx, delay); err != nil {
			return err
		}
		// A run cannot continue from an assistant message: the failed reply
		// leaves the transcript (it stays in History), then the run resumes
		// from the user message before it.
		msgs := s.Agent.Messages()
		s.Agent.SetMessages(msgs[:len(msgs)-1])
		err = s.Agent.Continue(ctx)
	}
}

// sleep waits d, or returns ctx's error if it ends first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// run plays three prompts against a flaky fake provider.
func run(ctx context.Context, out io.Writer, policy Policy) error {
	fake := agentcoretest.New(
		agentcoretest.ErrorResponse(`529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
		// A provider's typed failure: the status, and the delay it asks for.
		agentcoretest.Response{StopReason: agentcore.StopError, Err: &agentcore.ProviderError{
			StatusCode: 429, Message: "429 Too Many Requests: rate limit exceeded", RetryAfter: 5 * time.Millisecond,
		}},
		agentcoretest.TextResponse("The design splits a stateless loop from a stateful agent."),
		agentcoretest.ErrorResponse("401 invalid x-api-key"),
		agentcoretest.TextResponse("Open questions: retries and compaction live above the core."),
	)
	s := NewSession(agentcore.Options{
		SystemPrompt: "You answer questions about design documents.",
		Model:        agentcoretest.Model(),
		StreamFn:     fake.Stream,
	}, policy, out)

	for _, text := range []string{
		"Summarize the design.",
		"And the open questions?",
		"The key is fixed; the open questions, please.",
	} {
		fmt.Fprintln(out, "user:", text)
		err := s.Prompt(ctx, text)
		if runErr, failed := errors.AsType[*agentcore.RunError](err); failed {
			fmt.Fprintf(out, "  (failed: %s)\n", runErr.Message.ErrorMessage)
			continue
		}
		if err != nil {
			return err
		}
		msgs := s.Agent.Messages()
		fmt.Fprintln(out, "model:", msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text())
	}

	calls := fake.Calls()
	fmt.Fprintf(out, "requests: %d; the last one showed the model: %s\n", len(calls), roles(calls[len(calls)-1].Request.Messages))
	fmt.Fprintf(out, "agent transcript: %s\n", roles(s.Agent.Messages()))
	fmt.Fprintf(out, "session history:  %s\n", roles(s.History))
	return nil
}

// roles lists the roles of messages, failed replies marked with "!".
func roles(messages []agentcore.Message) string {
	var out []string
	for _, m := range messages {
		r := m.Role()
		if a, ok := m.(*agentcore.AssistantMessage); ok && a.StopReason.Failed() {
			r += "!"
		}
		out = append(out, r)
	}
	return strings.Join(out, " ")
}
