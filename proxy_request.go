package agentcore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// decodeProxyRequest reads a proxy request body, {model, context:
// {messages}, options}, from body as it arrives: messages are decoded one
// at a time, so that a request costs about the size of its decoded
// messages plus its largest message, not copies of the whole body. Keys
// are matched exactly; unknown keys are skipped; null stands for absent.
// A read error of body is returned as is (wrapped).
func decodeProxyRequest(body io.Reader, reg *MessageRegistry) (*ProxyCall, error) {
	dec := json.NewDecoder(body)
	call := &ProxyCall{}
	hasModel := false
	err := decodeObject(dec, func(key string) error {
		switch key {
		case "model":
			var m *Model
			if err := dec.Decode(&m); err != nil {
				return err
			}
			if hasModel = m != nil; hasModel {
				call.Model = *m
			}
		case "context":
			return decodeObject(dec, func(key string) error {
				if key != "messages" {
					return skipValue(dec)
				}
				msgs, err := decodeMessages(dec, reg)
				if err != nil {
					return fmt.Errorf("context: %w", err)
				}
				call.Request.Messages = msgs
				return nil
			})
		case "options":
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			call.RawOptions = nil
			if !isNull(raw) {
				call.RawOptions = raw
			}
		default:
			return skipValue(dec)
		}
		return nil
	})
	if err == nil {
		if _, end := dec.Token(); end != io.EOF {
			err = errors.New("data after the request's JSON object")
		}
	}
	if err != nil {
		return nil, jsonEOF(err)
	}
	if !hasModel {
		return nil, errors.New("model is required")
	}
	if call.Request.Messages == nil {
		call.Request.Messages = []Message{}
	}
	if call.RawOptions != nil {
		var o proxyOptions
		if err := json.Unmarshal(call.RawOptions, &o); err != nil {
			return nil, fmt.Errorf("options: %w", err)
		}
		call.Options = o.streamOptions()
	}
	return call, nil
}

// errJSONEnd is the error of a body that ends inside its JSON value.
var errJSONEnd = errors.New("unexpected end of JSON input")

// jsonEOF words a body cut short as json.Unmarshal does.
func jsonEOF(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errJSONEnd
	}
	return err
}

// decodeObject reads a JSON object (or null) from dec, calling member for
// each key; member reads the key's value.
func decodeObject(dec *json.Decoder, member func(key string) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil
	}
	if tok != json.Delim('{') {
		return fmt.Errorf("want a JSON object, got %v", tok)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if err := member(key); err != nil {
			return err
		}
	}
	_, err = dec.Token() // the closing brace
	return err
}

// decodeMessages reads a JSON array of messages (or null) from dec, one
// message at a time.
func decodeMessages(dec *json.Decoder, reg *MessageRegistry) ([]Message, error) {
	tok, err := dec.Token()
	if err != nil || tok == nil {
		return nil, err
	}
	if tok != json.Delim('[') {
		return nil, fmt.Errorf("messages: want a JSON array, got %v", tok)
	}
	msgs := []Message{}
	for i := 0; dec.More(); i++ {
		m := messageDecoder{reg: reg}
		if err := dec.Decode(&m); err != nil {
			if m.err != nil {
				return nil, fmt.Errorf("message %d: %w", i, m.err)
			}
			return nil, err
		}
		msgs = append(msgs, m.msg)
	}
	_, err = dec.Token() // the closing bracket
	return msgs, err
}

// messageDecoder decodes one message with reg where it stands in the
// decoder's buffer, without copying its JSON first.
type messageDecoder struct {
	reg *MessageRegistry
	msg Message
	err error // the message's own error, apart from JSON syntax errors
}

// UnmarshalJSON decodes the message; data, the decoder's buffer, is not
// retained (UnmarshalMessage copies what a message keeps).
func (d *messageDecoder) UnmarshalJSON(data []byte) error {
	d.msg, d.err = d.reg.UnmarshalMessage(data)
	return d.err
}

// skipValue reads and drops the next JSON value of dec.
func skipValue(dec *json.Decoder) error {
	var v json.RawMessage
	return dec.Decode(&v)
}
