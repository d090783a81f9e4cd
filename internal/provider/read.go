package provider

import (
	"context"
	"errors"
	"io"

	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/sse"
)

// Events is a source of a body's server-sent events: an [*sse.Reader],
// or a provider's reader around one. Next returns io.EOF at the end of
// the body; a [*Failure] it returns ends the response with it.
type Events interface {
	Next() (sse.Event, error)
}

// Decoder is one API's event mapping: it applies each event of a
// response to a [Builder].
type Decoder interface {
	// Event applies one event. It reports done at the stream's end
	// sentinel (the body is not read further), and the failure that
	// ends the response, nil to go on.
	Event(ev sse.Event) (done bool, f *Failure)
}

// ReadRules are what tells one API's read loop from another's: what a
// failed read of the body is, and what its end does. The zero value
// reads the body as pi-ai's OpenAI client does.
type ReadRules struct {
	// MaxLine bounds a line of the event stream and an event's data;
	// 0 means [sse.DefaultMaxLine].
	MaxLine int
	// LineTooLong is the text of a body with a longer line, given the
	// reader's error; nil means err's text.
	LineTooLong func(err error) string
	// AbortedText is the failure's text when a read fails once ctx is
	// done; "" means none: End reports the abort.
	AbortedText string
	// Finished, when not nil, reports whether the response is complete
	// enough that a read failing now ends it without a failure.
	Finished func() bool
	// EndBlocks ends the open blocks, in content order, when the body
	// ended without a failure ([Builder.EndAll]), as pi-ai's OpenAI and
	// Gemini adapters do; else they stay open, as the others leave them.
	EndBlocks bool
}

// Read is the one read loop: it passes the events of body to d until
// the body ends, d reports done or a failure, the content outgrows b's
// budget, or the consumer stops. A failed read of the body is classified
// once, here ([ReadRules.Classify]). It returns the failure that ended
// the response, nil when none.
func Read(ctx context.Context, body io.Reader, d Decoder, b *Builder, rules ReadRules) *Failure {
	return ReadEvents(ctx, sse.NewReader(body, rules.MaxLine), d, b, rules)
}

// ReadEvents is [Read] of a source of events.
func ReadEvents(ctx context.Context, events Events, d Decoder, b *Builder, rules ReadRules) *Failure {
	f := readEvents(ctx, events, d, b, rules)
	if f == nil && rules.EndBlocks {
		b.EndAll()
	}
	return f
}

func readEvents(ctx context.Context, events Events, d Decoder, b *Builder, rules ReadRules) *Failure {
	for !b.Stopped() {
		ev, err := events.Next()
		if err != nil {
			return rules.Classify(ctx, err)
		}
		done, f := d.Event(ev)
		if f != nil {
			return f
		}
		if err := b.Budget.Err(); err != nil {
			return LimitFailure(err)
		}
		if done {
			return nil
		}
	}
	return nil
}

// Classify returns the failure of a read of a body that returned err:
// none at its end (io.EOF); a [*Failure] as it is; the abort
// ([ReadRules.AbortedText]) once ctx is done; none once the response is
// [ReadRules.Finished]; a line too long or a limit of the response
// ([limit.Is]) as such; else the connection broke off ([Terminated]).
func (rules ReadRules) Classify(ctx context.Context, err error) *Failure {
	var f *Failure
	switch {
	case errors.Is(err, io.EOF):
		return nil
	case errors.As(err, &f):
		return f
	case ctx.Err() != nil:
		if rules.AbortedText == "" {
			return nil
		}
		return TextFailure(rules.AbortedText)
	case rules.Finished != nil && rules.Finished():
		return nil
	case errors.Is(err, sse.ErrLineTooLong) && rules.LineTooLong != nil:
		return &Failure{Text: rules.LineTooLong(err), Err: err}
	case errors.Is(err, sse.ErrLineTooLong), limit.Is(err):
		return ErrFailure(err)
	}
	return Terminated(err)
}
