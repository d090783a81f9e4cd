package openai

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestSessionAffinityHeaders checks the headers that carry the SessionID
// against what pi-ai 1.6.0 sent for the same model and options.
func TestSessionAffinityHeaders(t *testing.T) {
	openRouter := testTarget(t)
	openRouter.Model.Provider = "openrouter"
	withCompat := func(target providertest.Target, compat string) providertest.Target {
		target.Model.Compat = json.RawMessage(compat)
		return target
	}
	affinityKeys := []string{"X-Session-Id", "Session_id", "X-Client-Request-Id", "X-Session-Affinity"}
	for _, tt := range []struct {
		name   string
		target providertest.Target
		so     agentcore.StreamOptions
		want   map[string]string
	}{
		{"OpenRouter", openRouter, agentcore.StreamOptions{SessionID: "s1"}, map[string]string{"X-Session-Id": "s1"}},
		{"OpenRouter without a session", openRouter, agentcore.StreamOptions{}, nil},
		{"OpenRouter without caching", openRouter, agentcore.StreamOptions{SessionID: "s1", CacheRetention: "none"}, nil},
		{"over the model's header", func() providertest.Target {
			target := openRouter
			target.Model.Headers = map[string]string{"X-Session-Id": "model"}
			return target
		}(), agentcore.StreamOptions{SessionID: "s1"}, map[string]string{"X-Session-Id": "s1"}},
		{"under the request's header", openRouter, agentcore.StreamOptions{SessionID: "s1", Headers: map[string]string{"x-session-id": "request"}},
			map[string]string{"X-Session-Id": "request"}},
		{"OpenRouter turned off", withCompat(openRouter, `{"sendSessionAffinityHeaders": false}`), agentcore.StreamOptions{SessionID: "s1"}, nil},
		{"another server", testTarget(t), agentcore.StreamOptions{SessionID: "s1"}, nil},
		{"another server turned on", withCompat(testTarget(t), `{"sendSessionAffinityHeaders": true}`), agentcore.StreamOptions{SessionID: "s1"},
			map[string]string{"Session_id": "s1", "X-Client-Request-Id": "s1", "X-Session-Affinity": "s1"}},
		{"another server in OpenRouter's format", withCompat(testTarget(t), `{"sendSessionAffinityHeaders": true, "sessionAffinityFormat": "openrouter"}`),
			agentcore.StreamOptions{SessionID: "s1"}, map[string]string{"X-Session-Id": "s1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var rec providertest.Recorder
			fn := rec.Serve(t, tt.target, 200, nil, tt.target.Success)
			tt.so.APIKey = tt.target.APIKey
			_, final := providertest.Collect(fn(t.Context(), tt.target.Model, providertest.HiRequest(), tt.so), nil)
			require.NotNil(t, final)
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			headers, _ := rec.Requests()
			require.Len(t, headers, 1)
			got := map[string]string{}
			for _, k := range affinityKeys {
				if v := headers[0].Get(k); v != "" {
					got[http.CanonicalHeaderKey(k)] = v
				}
			}
			if tt.want == nil {
				tt.want = map[string]string{}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
