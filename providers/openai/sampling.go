package openai

import (
	"bytes"
	"encoding/json"
	"errors"
)

// withSamplingParams applies StreamOptions.SamplingParams to an encoded
// request body as pi-ai does (Object.assign after every named field): a
// key the body has takes the new value in place, a new key goes last.
// Empty params leave body as it is.
func withSamplingParams(body, params json.RawMessage) ([]byte, error) {
	if len(bytes.TrimSpace(params)) == 0 || bytes.Equal(bytes.TrimSpace(params), []byte("null")) {
		return body, nil
	}
	fields, err := objectFields(body)
	if err != nil {
		return nil, err
	}
	extra, err := objectFields(params)
	if err != nil {
		return nil, errors.New("samplingParams: " + err.Error())
	}
	for _, e := range extra {
		replaced := false
		for i := range fields {
			if fields[i].key == e.key {
				fields[i].value, replaced = e.value, true
				break
			}
		}
		if !replaced {
			fields = append(fields, e)
		}
	}
	w := objectWriter{}
	for _, f := range fields {
		w.field(f.key, f.value)
	}
	if len(fields) == 0 {
		return []byte("{}"), nil
	}
	return w.close()
}

type objectField struct {
	key   string
	value json.RawMessage
}

// objectFields reads a JSON object's members in order.
func objectFields(data []byte) ([]objectField, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var out []objectField
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, objectField{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return out, nil
}
