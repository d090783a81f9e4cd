// Package thinkleveltest checks a provider's thinking fields against the
// requests pi-ai 1.6.0 builds for every catalog model at every thinking
// level, recorded by models/testdata/payloads.mjs into each provider's
// testdata/thinking_levels.pi.jsonl.gz.
package thinkleveltest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/gzlines"
	"github.com/pi-go/agentcore/models"
)

// File is the recording, relative to a provider package's directory.
const File = "testdata/thinking_levels.pi.jsonl.gz"

// Build returns the JSON body of the request a provider builds for model
// at level.
type Build func(model agentcore.Model, level agentcore.ThinkingLevel) ([]byte, error)

// Check compares the named fields of Build's bodies with pi-ai's for every
// recorded model and level: a field absent or null on both sides is
// equal. skip names why a model at a level is left out, or "" to check
// it (nil checks all); levels pi-ai refused are left out and counted. It
// fails t unless it compared at least one request.
func Check(t *testing.T, fields []string, skip func(agentcore.Model, agentcore.ThinkingLevel) string, build Build) {
	t.Helper()
	compared, refused, skipped := 0, 0, map[string]int{}
	gzlines.Each(t, File, func(line []byte) {
		var rec struct {
			Provider string                  `json:"provider"`
			ID       string                  `json:"id"`
			Level    agentcore.ThinkingLevel `json:"level"`
			Fields   map[string]any          `json:"fields"`
			Error    string                  `json:"error"`
		}
		require.NoError(t, json.Unmarshal(line, &rec))
		model, ok := models.Lookup(rec.Provider, rec.ID)
		require.True(t, ok, "%s/%s", rec.Provider, rec.ID)
		if rec.Error != "" {
			refused++
			return
		}
		if skip != nil {
			if why := skip(model, rec.Level); why != "" {
				skipped[why]++
				return
			}
		}
		body, err := build(model, rec.Level)
		require.NoError(t, err)
		assert.Equal(t, pick(t, rec.Fields, fields), pick(t, body, fields), "%s/%s at level %q", rec.Provider, rec.ID, rec.Level)
		compared++
	})
	t.Logf("compared %d requests; pi-ai refused %d; skipped %v", compared, refused, skipped)
	assert.Positive(t, compared)
}

// errCaptured stops a request once [Stream] has its body.
var errCaptured = errors.New("thinkleveltest: body captured")

// Stream returns a [Build] that builds the body as fn does: it calls fn
// with a user message "hi", key "k" and the level, takes the body its
// OnPayload hook sees and stops the request there, so that nothing is
// sent. A body fn did not build is an error carrying the stream's.
func Stream(fn agentcore.StreamFn) Build {
	return func(model agentcore.Model, level agentcore.ThinkingLevel) ([]byte, error) {
		var body []byte
		so := agentcore.StreamOptions{APIKey: "k", Reasoning: level}
		so.OnPayload = func(_ context.Context, _ agentcore.Model, p json.RawMessage) (json.RawMessage, error) {
			body = slices.Clone(p)
			return nil, errCaptured
		}
		req := agentcore.Request{Messages: []agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("hi"), Timestamp: 1}}}
		var failure string
		for ev := range fn(context.Background(), model, req, so) {
			if e, ok := ev.(*agentcore.ErrorEvent); ok && e.Message != nil {
				failure = e.Message.ErrorMessage
			}
		}
		if body == nil {
			return nil, errors.New("no body: " + failure)
		}
		return body, nil
	}
}

// pick returns the named non-null fields of v (a JSON body, or the
// recorded fields) as JSON values.
func pick(t *testing.T, v any, names []string) map[string]any {
	body, ok := v.([]byte)
	if !ok {
		var err error
		body, err = json.Marshal(v)
		require.NoError(t, err)
	}
	var all map[string]any
	require.NoError(t, json.Unmarshal(body, &all))
	out := map[string]any{}
	for _, n := range names {
		if v, ok := all[n]; ok && v != nil {
			out[n] = v
		}
	}
	return out
}

// SkipCompat returns a skip function for [Check] that leaves out models
// whose compat setting key is set to a value other than those of keep.
func SkipCompat(key string, keep ...any) func(agentcore.Model, agentcore.ThinkingLevel) string {
	return func(model agentcore.Model, _ agentcore.ThinkingLevel) string {
		var compat map[string]any
		_ = json.Unmarshal(model.Compat, &compat)
		v, ok := compat[key]
		if !ok || slices.Contains(keep, v) {
			return ""
		}
		b, _ := json.Marshal(v)
		return key + " " + string(b)
	}
}
