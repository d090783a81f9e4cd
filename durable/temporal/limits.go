package temporal

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/pi-go/agentcore"
)

// ErrTooLarge is reported for content a session without a claim check
// cannot keep within Temporal's limits ([Options.PayloadLimit]): an update
// whose messages would take the session's state past the limit is refused
// with it, changing nothing; a run whose model request's context is past
// it fails with it (errors.Is on its [*agentcore.RunError]).
var ErrTooLarge = errors.New("agentcore/durable: content past the session's payload limit")

// DefaultPayloadLimit is the payload limit of a session whose
// [Options.PayloadLimit] is zero: three quarters of the 2 MiB a Temporal
// server accepts in one payload by default, leaving room for the rest of
// a continue-as-new's input and of a workflow task's commands (4 MiB).
const DefaultPayloadLimit = 1536 << 10

// NoPayloadLimit, as [Options.PayloadLimit], turns the limit off: for
// workers and clients whose data converter keeps large payloads out of the
// history ([ClaimCheck]).
const NoPayloadLimit = -1

// payloadLimit is the limit in bytes, 0 for none.
func (o *Options) payloadLimit() int {
	switch {
	case o.PayloadLimit == 0:
		return DefaultPayloadLimit
	case o.PayloadLimit < 0:
		return 0
	}
	return o.PayloadLimit
}

// room refuses, with [ErrTooLarge], content that would add extra bytes to
// a state already as large as the limit allows.
func (ss *session) room(extra int) error {
	limit := ss.opts.payloadLimit()
	if limit == 0 || extra <= 0 {
		return nil
	}
	if size := ss.stateSize(); size+extra > limit {
		return refuseWith(ErrTooLarge, fmt.Sprintf("%d more bytes on a state of %d, limit %d (compact the transcript, or see Options.PayloadLimit)", extra, size, limit))
	}
	return nil
}

// fits reports whether an outcome of size bytes may be recorded: it is
// kept twice until its run ends (in the run's record and, as its
// message, in the transcript).
func (ss *session) fits(size int) bool {
	return ss.room(2*size) == nil
}

// tooLargeContext is the error text of a model request whose context is
// past the limit.
func tooLargeContext(size, limit int) string {
	return fmt.Sprintf("%s: the request's context is %d bytes, the limit %d: compact the transcript (Session.SetMessages) or keep large content out of the history (ClaimCheck)",
		ErrTooLarge.Error(), size, limit)
}

// tooLargeResponse is the error text of a model response past the limit.
func tooLargeResponse(size, limit int) string {
	return fmt.Sprintf("%s: a response of %d bytes was not kept (limit %d)", ErrTooLarge.Error(), size, limit)
}

// tooLargeOutput is the error result of a call whose result the session
// cannot keep.
func tooLargeOutput(size, limit int) toolOutput {
	return toolOutput{IsError: true, Result: agentcore.TextResult(fmt.Sprintf(
		"The tool ran, but its result of %d bytes was not kept: it would take the session past its payload limit of %d bytes. Ask for a smaller result.",
		size, limit))}
}

// tooLargeCause is the cause of a run that failed with a too-large text:
// it wraps [ErrTooLarge]; nil for another text.
func tooLargeCause(text string) error {
	rest, ok := strings.CutPrefix(text, ErrTooLarge.Error())
	if !ok {
		return nil
	}
	return fmt.Errorf("%w%s", ErrTooLarge, rest)
}

// stateOverhead bounds the encoded size of the state's fields other than
// its messages and tool outcomes (counters, settings, results).
const stateOverhead = 16 << 10

// stateSize is an upper bound of the state's encoded size: the sum of its
// messages' and tool outcomes' sizes, each encoded once and cached, and
// stateOverhead. Encoding the whole state at every check would cost a
// workflow task time in proportion to the state.
func (ss *session) stateSize() int {
	st := &ss.st
	old := ss.sizes
	ss.sizes = make(map[any]int, len(old))
	size := func(key any, v any) int {
		if _, outcome := key.(outcomeKey); !outcome && reflect.ValueOf(key).Kind() != reflect.Pointer {
			return encodedSize(v) + 1 // not a key a map can hold
		}
		n, ok := old[key]
		if !ok {
			n = encodedSize(v) + 1 // and its comma
		}
		ss.sizes[key] = n
		return n
	}
	total := stateOverhead
	batches := []Messages{st.Transcript, st.Steering, st.FollowUp}
	if r := st.Run; r != nil {
		batches = append(batches, r.Prompts, r.Context)
		batches = append(batches, r.Steering...)
		batches = append(batches, r.FollowUps...)
		for _, m := range r.Responses {
			total += size(m, response{m})
		}
		for _, k := range slices.Sorted(maps.Keys(r.Tools)) {
			o := r.Tools[k]
			total += size(outcomeKey{r.Seq, k}, o) + len(k) + 3
		}
		if len(r.Decide) > 0 {
			total += encodedSize(r.Decide)
		}
	}
	for _, b := range batches {
		for _, m := range b {
			total += size(m, m)
		}
	}
	return total
}

// outcomeKey identifies a tool outcome in the size cache.
type outcomeKey struct {
	run int
	key string
}
