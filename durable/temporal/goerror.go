package temporal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/pi-go/agentcore"
)

// goErrorKey is the member of an assistant message's JSON object that
// carries its Go error ([agentcore.AssistantMessage.Err]) across Temporal.
// pi's format has no such member, and decoders of pi's format ignore it.
const goErrorKey = "goError"

// goError is an [agentcore.AssistantMessage.Err] on the wire: its text,
// and the [*agentcore.ProviderError] that errors.As finds in it, if any.
type goError struct {
	Text     string         `json:"text"`
	Provider *providerError `json:"provider,omitempty"`
}

// providerError is an [agentcore.ProviderError] on the wire; its cause
// travels as text.
type providerError struct {
	StatusCode int           `json:"statusCode,omitempty"`
	Message    string        `json:"message"`
	RetryAfter time.Duration `json:"retryAfterNs,omitempty"`
	Cause      string        `json:"cause,omitempty"`
}

func newGoError(err error) *goError {
	g := &goError{Text: err.Error()}
	if pe, ok := errors.AsType[*agentcore.ProviderError](err); ok {
		g.Provider = &providerError{StatusCode: pe.StatusCode, Message: pe.Message, RetryAfter: pe.RetryAfter}
		if pe.Err != nil {
			g.Provider.Cause = pe.Err.Error()
		}
	}
	return g
}

// err rebuilds the error: the provider error itself when there was one
// (its cause a plain error of the same text), else a plain error.
func (g *goError) err() error {
	p := g.Provider
	if p == nil {
		return errors.New(g.Text)
	}
	pe := &agentcore.ProviderError{StatusCode: p.StatusCode, Message: p.Message, RetryAfter: p.RetryAfter}
	if p.Cause != "" {
		pe.Err = errors.New(p.Cause)
	}
	return pe
}

// encodeMessage writes m in pi's JSON format, plus the goError member for
// an assistant message with an Err.
func encodeMessage(m agentcore.Message) ([]byte, error) {
	data, err := json.Marshal(m)
	a, ok := m.(*agentcore.AssistantMessage)
	if err != nil || !ok || a.Err == nil {
		return data, err
	}
	extra, err := json.Marshal(newGoError(a.Err))
	if err != nil {
		return nil, err
	}
	if len(data) < 2 || data[len(data)-1] != '}' {
		return nil, fmt.Errorf("agentcore/durable: assistant message encoded as %.20q", data)
	}
	out := make([]byte, 0, len(data)+len(goErrorKey)+len(extra)+4)
	out = append(out, data[:len(data)-1]...)
	out = append(out, `,"`+goErrorKey+`":`...)
	out = append(out, extra...)
	return append(out, '}'), nil
}

// decodeMessage reads a message of any role written by encodeMessage (or
// in plain pi format, which has no Go error).
func decodeMessage(data []byte) (agentcore.Message, error) {
	m, err := agentcore.UnmarshalMessage(data)
	if err != nil {
		return nil, err
	}
	a, ok := m.(*agentcore.AssistantMessage)
	if !ok || !bytes.Contains(data, []byte(`"`+goErrorKey+`"`)) {
		return m, nil
	}
	var w struct {
		GoError *goError `json:"goError"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("agentcore/durable: %s: %w", goErrorKey, err)
	}
	if w.GoError != nil {
		a.Err = w.GoError.err()
	}
	return a, nil
}

// decodeAssistant reads an assistant message written by encodeMessage;
// null reads as nil.
func decodeAssistant(data []byte) (*agentcore.AssistantMessage, error) {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil, nil
	}
	m, err := decodeMessage(data)
	if err != nil {
		return nil, err
	}
	a, ok := m.(*agentcore.AssistantMessage)
	if !ok {
		return nil, fmt.Errorf("agentcore/durable: a %s message where an assistant message was expected", m.Role())
	}
	return a, nil
}

// response is a model answer as it crosses Temporal: the model activity's
// result and a run record's entry. It is an assistant message in pi's
// JSON format with its Err in the goError member, so that a result
// recorded before that member existed still decodes.
type response struct {
	Message *agentcore.AssistantMessage
}

// MarshalJSON writes the message with its Go error; a nil message is null.
func (r response) MarshalJSON() ([]byte, error) {
	if r.Message == nil {
		return []byte("null"), nil
	}
	return encodeMessage(r.Message)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *response) UnmarshalJSON(data []byte) (err error) {
	r.Message, err = decodeAssistant(data)
	return err
}

// responses are a run's model answers, each as a [response].
type responses []*agentcore.AssistantMessage

// MarshalJSON writes a JSON array of responses.
func (rs responses) MarshalJSON() ([]byte, error) {
	out := make([]response, len(rs))
	for i, m := range rs {
		out[i] = response{m}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (rs *responses) UnmarshalJSON(data []byte) error {
	var in []response
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	*rs = make(responses, len(in))
	for i, r := range in {
		(*rs)[i] = r.Message
	}
	return nil
}
