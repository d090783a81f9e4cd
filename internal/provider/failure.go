package provider

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/retryafter"
)

// Failure is why a model request failed. It is passed as *Failure
// everywhere, nil meaning none; it is an error, so that a source of
// events ([Events]) can end the body with one.
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

// Error returns f's Text.
func (f *Failure) Error() string { return f.Text }

// Unwrap returns f's Err.
func (f *Failure) Unwrap() error { return f.Err }

// TextFailure is a failure without a status or a cause: a malformed
// event, a cut stream, a request that could not be built.
func TextFailure(text string) *Failure { return &Failure{Text: text} }

// ErrFailure is a failure whose text is err's, err its cause.
func ErrFailure(err error) *Failure { return &Failure{Text: err.Error(), Err: err} }

// Status is the failure of a non-2xx reply: its status, the delay its
// headers ask for, and text.
func Status(status int, header http.Header, text string) *Failure {
	return &Failure{Text: text, Status: status, RetryAfter: retryafter.Parse(header, time.Now())}
}

// CauseFailure is the failure of a network error as JavaScript's
// platform words it for pi-ai: prefix, then the error's reason (the
// *url.Error around it left out), which is the failure's Err.
func CauseFailure(prefix string, err error) *Failure {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	return &Failure{Text: prefix + err.Error(), Err: err}
}

// The prefixes of the network errors pi-ai reports.
const (
	// ConnectionErrorPrefix starts the error of a request that got no
	// response, as the OpenAI and Anthropic SDKs word it.
	ConnectionErrorPrefix = "Connection error.: "
	// TerminatedPrefix starts the error of a response whose body broke
	// off on a connection kept alive, as Node's fetch words it in every
	// provider.
	TerminatedPrefix = "terminated: "
)

// Terminated is the failure of a body that broke off: [TerminatedPrefix]
// and the reason.
func Terminated(err error) *Failure { return CauseFailure(TerminatedPrefix, err) }

// Connection is the failure of a request that got no response:
// [ConnectionErrorPrefix] and the reason.
func Connection(err error) *Failure { return CauseFailure(ConnectionErrorPrefix, err) }

// LimitFailure is the failure of a response ended by one of its limits
// (see [limit.Is]): err's text, err its cause.
func LimitFailure(err error) *Failure { return ErrFailure(err) }

// ProviderError is f as a message's Err.
func (f *Failure) ProviderError() *agentcore.ProviderError {
	return &agentcore.ProviderError{StatusCode: f.Status, Message: f.Text, RetryAfter: f.RetryAfter, Err: f.Err}
}

// Fail ends w's stream with out, the message so far, as an error whose Err
// is f's ProviderError, or as aborted (no Err) when ctx is done. f's text
// is cut to [limit.MaxFailureText] characters ([limit.Truncate]), whatever
// the server sent; f is not changed.
func Fail(ctx context.Context, w *agentcore.StreamWriter, out *agentcore.AssistantMessage, f *Failure) {
	c := *f
	c.Text = limit.Truncate(c.Text, limit.MaxFailureText)
	w.Fail(ctx, out, c.ProviderError())
}
