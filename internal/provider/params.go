package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// MergeParams applies params, a JSON object such as
// [agentcore.StreamOptions.SamplingParams], to body, an encoded request
// object, as pi-ai does with Object.assign after every named field: a key
// the body has takes the new value in place, a new key goes last. Empty or
// null params leave body as it is; params that are no JSON object are an
// error.
func MergeParams(body, params json.RawMessage) ([]byte, error) {
	if t := bytes.TrimSpace(params); len(t) == 0 || string(t) == "null" {
		return body, nil
	}
	b, err := jsonv.Parse(body)
	if err != nil || b.Kind() != jsonv.Object {
		return nil, errors.New("request body: not a JSON object")
	}
	p, err := jsonv.Parse(params)
	if err != nil || p.Kind() != jsonv.Object {
		return nil, errors.New("samplingParams: not a JSON object")
	}
	members := slices.Clone(b.Members())
	for _, m := range p.Members() {
		if i := slices.IndexFunc(members, func(x jsonv.Member) bool { return x.Key == m.Key }); i >= 0 {
			members[i].Value = m.Value
		} else {
			members = append(members, m)
		}
	}
	return jsonv.ObjectValue(members).AppendJSON(nil), nil
}
