package provider

import (
	"context"
	"github.com/pi-go/agentcore/internal/limit"
	"net/http"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/retryafter"
)

// Failure is why a model request failed.
type Failure struct {
	// Text is the message's ErrorMessage.
	Text string
	// Status is the HTTP status; 0 when the failure had none (a network
	// error, an error event mid-stream, a cut stream).
	Status int
	// RetryAfter is the delay the server asked for; 0 when none.
	RetryAfter time.Duration
	// Err is the underlying error, such as a net.Error; nil when none.
	Err error
	// SDKText is a refusal as the provider's SDK words its error, when
	// pi-ai reports Text instead: the text [Send] puts after the retry
	// delay a server asked for in vain. Empty means Text.
	SDKText string
}

// Status is the failure of a non-2xx reply: its status, the delay its
// headers ask for, and text.
func Status(status int, header http.Header, text string) Failure {
	return Failure{Text: text, Status: status, RetryAfter: retryafter.Parse(header, time.Now())}
}

// ProviderError is f as a message's Err.
func (f Failure) ProviderError() *agentcore.ProviderError {
	return &agentcore.ProviderError{StatusCode: f.Status, Message: f.Text, RetryAfter: f.RetryAfter, Err: f.Err}
}

// Fail ends w's stream with out, the message so far, as an error whose Err
// is f's ProviderError, or as aborted (no Err) when ctx is done. f's text
// is cut to [limit.MaxFailureText] characters ([limit.Truncate]), whatever the server
// sent.
func Fail(ctx context.Context, w *agentcore.StreamWriter, out *agentcore.AssistantMessage, f Failure) {
	f.Text = limit.Truncate(f.Text, limit.MaxFailureText)
	w.Fail(ctx, out, f.ProviderError())
}
