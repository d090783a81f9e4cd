package agentcore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// proxyRequest is a proxy request body as a client sends it.
type proxyRequest struct {
	Model   *Model `json:"model"`
	Context struct {
		Messages []json.RawMessage `json:"messages"`
	} `json:"context"`
	Options json.RawMessage `json:"options"`
}

// readProxyBody reads a request body whole; sizeHint is its announced
// length, at most the handler's limit (-1 when unknown), which sizes the
// buffer. Only an authorized client's body is read.
func readProxyBody(body io.Reader, sizeHint int64) ([]byte, error) {
	var buf bytes.Buffer
	if sizeHint > 0 {
		buf.Grow(int(sizeHint) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(body)
	return buf.Bytes(), err
}

// decodeProxyRequest decodes a proxy request body, {model, context:
// {messages}, options}, with encoding/json: keys match as encoding/json
// matches them, unknown keys are ignored, null stands for absent.
func decodeProxyRequest(data []byte, reg *MessageRegistry) (*ProxyCall, error) {
	var req proxyRequest
	if err := json.Unmarshal(data, &req); err != nil {
		return nil, err
	}
	if req.Model == nil {
		return nil, errors.New("model is required")
	}
	call := &ProxyCall{Model: *req.Model}
	var err error
	if call.Request.Messages, err = decodeMessages(req.Context.Messages, reg); err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}
	if call.RawOptions, call.Options, err = decodeProxyOptions(req.Options); err != nil {
		return nil, fmt.Errorf("options: %w", err)
	}
	return call, nil
}

// decodeMessages decodes each message with reg; none is an empty list.
func decodeMessages(raws []json.RawMessage, reg *MessageRegistry) ([]Message, error) {
	msgs := make([]Message, len(raws))
	for i, raw := range raws {
		m, err := reg.UnmarshalMessage(raw)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		msgs[i] = m
	}
	return msgs, nil
}

// decodeProxyOptions decodes the request's options; absent or null ones are
// nil raw options and zero options.
func decodeProxyOptions(raw json.RawMessage) (json.RawMessage, StreamOptions, error) {
	if len(raw) == 0 || isNull(raw) {
		return nil, StreamOptions{}, nil
	}
	var o proxyOptions
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, StreamOptions{}, err
	}
	return raw, o.streamOptions(), nil
}
