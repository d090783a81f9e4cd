package temporal

import (
	"encoding/json"
	"slices"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
	"go.temporal.io/sdk/workflow"
)

// pageBytes bounds the encoded size of the messages one answer of the
// messages query or update carries: a longer tail takes several answers
// (a message larger than this comes alone).
const pageBytes = 512 << 10

// registerWaits installs the run and messages queries, which clients
// poll, and the wait and messages updates of earlier clients, which
// recorded histories hold.
func (ss *session) registerWaits(ctx workflow.Context) error {
	st := &ss.st
	if err := workflow.SetUpdateHandler(ctx, UpdateWait, func(ctx workflow.Context, seq int) (WaitResult, error) {
		if err := workflow.Await(ctx, func() bool { return st.Finished >= seq || ss.closing }); err != nil {
			return WaitResult{}, err
		}
		if st.Finished < seq {
			return WaitResult{Retry: true}, nil
		}
		return st.result(seq), nil
	}); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandler(ctx, UpdateMessages, func(ctx workflow.Context, from int) (MessagesResult, error) {
		if err := workflow.Await(ctx, func() bool { return st.Origin+len(st.Transcript) != from || st.Run == nil || ss.closing }); err != nil {
			return MessagesResult{}, err
		}
		res := st.page(from)
		res.Retry = ss.closing
		return res, nil
	}); err != nil {
		return err
	}
	if err := workflow.SetQueryHandler(ctx, QueryRun, func(seq int) (WaitResult, error) {
		switch {
		case seq < 1 || seq > st.Runs:
			return WaitResult{Unknown: true}, nil
		case st.Finished < seq:
			return WaitResult{Pending: true}, nil
		}
		return st.result(seq), nil
	}); err != nil {
		return err
	}
	return workflow.SetQueryHandler(ctx, QueryMessages, func(from int) (MessagesResult, error) {
		return st.page(from), nil
	})
}

// result is how run seq, which has ended, ended.
func (s *sessionState) result(seq int) WaitResult {
	res, known := s.Results[seq]
	res.Forgotten = !known
	return res
}

// page answers the transcript's messages from cursor from on, at most
// pageBytes of them but at least one.
func (s *sessionState) page(from int) MessagesResult {
	res := MessagesResult{Running: s.Run != nil}
	i := from - s.Origin
	switch {
	case from == 0:
		i = 0 // the start, whatever the transcript
	case i < 0 || i > len(s.Transcript):
		i = 0 // the transcript was reset or replaced: start over
		res.Reset = true
	}
	n, size := i, 0
	for ; n < len(s.Transcript); n++ {
		size += encodedSize(s.Transcript[n])
		if size > pageBytes && n > i {
			break
		}
	}
	res.Messages = slices.Clone(s.Transcript[i:n])
	res.Next = s.Origin + n
	res.More = n < len(s.Transcript)
	return res
}

// encodedSize is the size of v's JSON encoding, the default data
// converter's; 0 when v does not encode.
func encodedSize(v any) int {
	if m, ok := v.(agentcore.Message); ok {
		data, err := encodeMessage(m)
		if err != nil {
			return 0
		}
		return len(data)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(data)
}

// WaitResult is the answer of the run query (and of the wait update of
// earlier clients): how a run ended, or that it has not.
type WaitResult struct {
	// ErrorMessage is the run's error, "" when it succeeded.
	ErrorMessage string `json:"errorMessage,omitempty"`
	// Aborted is whether the run was aborted.
	Aborted bool `json:"aborted,omitempty"`
	// Retry asks the client to wait again: the workflow continued as new.
	Retry bool `json:"retry,omitempty"`
	// Forgotten is set for a run too old for its result to be kept: it
	// ended, and how is not known any more.
	Forgotten bool `json:"forgotten,omitempty"`
	// Pending is set while the run has not ended.
	Pending bool `json:"pending,omitempty"`
	// Unknown is set for a number no run of the session has.
	Unknown bool `json:"unknown,omitempty"`
	// Held are the calls the run held for a decision, waiting when it
	// ended ([Options].Hold); none for a run that held nothing.
	Held []hold.Call `json:"held,omitempty"`
	// Message is the failed run's last assistant message, with its Err
	// (see [Messages]); nil after a success, and in results recorded by
	// versions that did not keep it.
	Message *agentcore.AssistantMessage `json:"-"`
}

// MarshalJSON writes the result with its message, under "message".
func (r WaitResult) MarshalJSON() ([]byte, error) {
	type plain WaitResult
	w := struct {
		plain
		Message *response `json:"message,omitempty"`
	}{plain: plain(r)}
	if r.Message != nil {
		w.Message = &response{r.Message}
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *WaitResult) UnmarshalJSON(data []byte) error {
	type plain WaitResult
	var w struct {
		plain
		Message *response `json:"message"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*r = WaitResult(w.plain)
	if w.Message != nil {
		r.Message = w.Message.Message
	}
	return nil
}

// MessagesResult is the answer of the messages query (and of the messages
// update of earlier clients).
type MessagesResult struct {
	// Messages are the transcript's messages from the cursor on.
	Messages Messages `json:"messages"`
	// Next is the cursor after them.
	Next int `json:"next"`
	// Running is whether a run is active.
	Running bool `json:"running"`
	// Reset is set when the transcript was reset or replaced under the
	// cursor: Messages start at the transcript's first message.
	Reset bool `json:"reset,omitempty"`
	// Retry asks the client to ask again: the workflow continued as new.
	Retry bool `json:"retry,omitempty"`
	// More is set when the answer holds only part of the messages past
	// the cursor (their encoding was too large for one answer): ask again
	// from Next for the rest.
	More bool `json:"more,omitempty"`
}
