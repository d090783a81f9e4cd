package providertest

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// Target is a provider under test.
type Target struct {
	// New returns the provider's stream function for a server at baseURL,
	// sending with client (nil means the default client). It places the
	// API root under baseURL as the provider's recordings did.
	New func(baseURL string, client *http.Client) agentcore.StreamFn
	// Model is the model requests are made for: the one the recordings
	// were made with (see [StreamCases]).
	Model agentcore.Model
	// APIKey is the key the recordings were made with; [Target.Run] sends
	// it.
	APIKey string
	// Success is the event stream of a successful text response
	// (testdata/stream/text.sse), whose first text delta is "Hello".
	Success []byte
	// FirstDelta is how many events of Success there are up to and
	// including the first text delta (see [Target.Head]).
	FirstDelta int
	// HeadBody, when not nil, is [Target.Head] itself, for a provider
	// whose stream is not server-sent events (Bedrock's AWS event
	// stream): FirstDelta is then not read.
	HeadBody []byte
	// Refusal is the JSON body of a 429, and RefusalText the error message
	// the provider makes of it.
	Refusal     []byte
	RefusalText string
	// RefusalSDKText is the text pi-ai puts after a retry delay too long
	// for Refusal (its SDK's words), when it is not RefusalText.
	RefusalSDKText string
	// Observed, when not nil, reports whether pi-ai passes an event of the
	// given name to OnProviderStreamEvent; nil means every event whose data
	// is a JSON object.
	Observed func(name string) bool
	// ObservedEvents, when not nil, returns the data OnProviderStreamEvent
	// sees for a body, in order, for a provider whose stream is not
	// server-sent events; Observed is then not read.
	ObservedEvents func(body []byte) []string
	// ToolCallHead, ArgumentsEvent and ToolCallTail make a response of one
	// tool call: ToolCallHead opens the call, ArgumentsEvent is the event
	// adding piece to its arguments, ToolCallTail ends the response.
	ToolCallHead   []byte
	ArgumentsEvent func(piece string) []byte
	ToolCallTail   []byte
	// WholeToolCalls says the provider's server sends a tool call whole,
	// in one event (Gemini), so that no stream of pieces builds one:
	// ToolCallHead, ArgumentsEvent and ToolCallTail then make a response
	// of one text block, ArgumentsEvent adding piece to its text, and the
	// suite checks that text where it would check the call's arguments.
	WholeToolCalls bool
	// WithLimits returns the provider's stream function for a server at
	// "http://provider.test" reached through client, with the limits its
	// options set.
	WithLimits func(client *http.Client, l Limits) agentcore.StreamFn
	// ErrorText, when not nil, replaces the parts of a final message's
	// errorMessage that differ between JavaScript and Go beyond those
	// [Target.Normalized] replaces itself. It is called with each
	// errorMessage compared with a recording, on the test's goroutine.
	ErrorText func(string) string
	// BodyMark is a text every request body of the target holds, which
	// OnPayload must see; empty means the model's ID as "model".
	BodyMark string
	// ToolCallID, when not nil, replaces the parts of a tool call's id
	// that differ between runs (an ID made up from the clock), in the
	// values [Target.Normalized] compares.
	ToolCallID func(string) string
}

// Limits are the options of a provider that bound what a server can make
// it do, as the provider's Options name them.
type Limits struct {
	MaxResponseBytes int64
	IdleTimeout      time.Duration
}

// Run streams the recordings' request (the [HiRequest] for Model, with
// APIKey) from fn, calling each after every event (it may cancel ctx),
// and returns the events and the final message. A stream without a final
// event fails the test.
func (target Target) Run(t testing.TB, ctx context.Context, fn agentcore.StreamFn, each func(agentcore.AssistantEvent)) ([]agentcore.AssistantEvent, *agentcore.AssistantMessage) {
	t.Helper()
	events, final := Collect(fn(ctx, target.Model, HiRequest(), agentcore.StreamOptions{APIKey: target.APIKey}), each)
	require.NotNil(t, final, "stream ended without a final event: %v", events)
	return events, final
}

// Head returns the start of Success: its events up to and including the
// first text delta.
func (target Target) Head() []byte {
	if target.HeadBody != nil {
		return target.HeadBody
	}
	parts := strings.SplitAfterN(string(target.Success), "\n\n", target.FirstDelta+1)
	return []byte(strings.Join(parts[:target.FirstDelta], ""))
}

// Final streams one request with so (and a key when so has none) and
// returns the final message; a stream without one fails the test.
func (target Target) Final(t *testing.T, fn agentcore.StreamFn, so agentcore.StreamOptions) *agentcore.AssistantMessage {
	t.Helper()
	var events []string
	final := target.stream(t.Context(), fn, so, func(ev agentcore.AssistantEvent) { events = append(events, ev.Type()) })
	require.NotNil(t, final, "no final event: %v", events)
	return final
}

// stream ranges over one request's stream, calling each for every event,
// and returns the final message.
func (target Target) stream(ctx context.Context, fn agentcore.StreamFn, so agentcore.StreamOptions, each func(agentcore.AssistantEvent)) *agentcore.AssistantMessage {
	if so.APIKey == "" {
		so.APIKey = "k"
	}
	_, final := Collect(fn(ctx, target.Model, HiRequest(), so), each)
	return final
}
