package temporal

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func failedMessage(err error) *agentcore.AssistantMessage {
	return &agentcore.AssistantMessage{
		Content: []agentcore.ContentBlock{}, API: "fake", Provider: "fake", Model: "m",
		StopReason: agentcore.StopError, ErrorMessage: "rate limited", Err: err, Timestamp: 1,
	}
}

func TestGoErrorRoundTrip(t *testing.T) {
	pe := &agentcore.ProviderError{StatusCode: 429, Message: "rate limited", RetryAfter: 1500 * time.Millisecond, Err: errors.New("connection reset")}
	tests := []struct {
		name string
		err  error
		want error // nil: no Err after the trip
	}{
		{name: "no error", err: nil, want: nil},
		{name: "provider error", err: pe, want: pe},
		{name: "provider error without cause", err: &agentcore.ProviderError{Message: "broken stream"},
			want: &agentcore.ProviderError{Message: "broken stream"}},
		{name: "wrapped provider error", err: fmt.Errorf("openai: %w", pe), want: pe},
		{name: "plain error", err: errors.New("stream ended early"), want: errors.New("stream ended early")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := failedMessage(tt.err)
			data, err := json.Marshal(Messages{msg, agentcore.UserText("next")})
			require.NoError(t, err)
			var back Messages
			require.NoError(t, json.Unmarshal(data, &back))
			require.Len(t, back, 2)
			got := back[0].(*agentcore.AssistantMessage)
			assert.Equal(t, tt.want, got.Err)
			// The message itself is unchanged, and pi's own decoder reads
			// the same message.
			got.Err = msg.Err
			assert.Equal(t, msg, got)
			plain, err := agentcore.UnmarshalMessages(data)
			require.NoError(t, err)
			assert.Nil(t, plain[0].(*agentcore.AssistantMessage).Err)
			pi, err := json.Marshal(msg)
			require.NoError(t, err)
			pb, err := json.Marshal(plain[0])
			require.NoError(t, err)
			assert.JSONEq(t, string(pi), string(pb))

			// As the model activity's result and a run record's responses.
			data, err = json.Marshal(response{msg})
			require.NoError(t, err)
			var r response
			require.NoError(t, json.Unmarshal(data, &r))
			assert.Equal(t, tt.want, r.Message.Err)
			data, err = json.Marshal(responses{msg, nil})
			require.NoError(t, err)
			var rs responses
			require.NoError(t, json.Unmarshal(data, &rs))
			require.Len(t, rs, 2)
			assert.Equal(t, tt.want, rs[0].Err)
			assert.Nil(t, rs[1])
		})
	}
}

// TestResponseOldFormat reads a model activity result recorded before the
// goError member existed: a plain message.
func TestResponseOldFormat(t *testing.T) {
	data, err := json.Marshal(failedMessage(nil))
	require.NoError(t, err)
	var r response
	require.NoError(t, json.Unmarshal(data, &r))
	require.NotNil(t, r.Message)
	assert.Equal(t, "rate limited", r.Message.ErrorMessage)
	assert.NoError(t, r.Message.Err)

	var w WaitResult
	require.NoError(t, json.Unmarshal([]byte(`{"errorMessage":"boom"}`), &w))
	assert.Equal(t, WaitResult{ErrorMessage: "boom"}, w)

	require.Error(t, json.Unmarshal([]byte(`{"role":"user","content":"hi","timestamp":1}`), &r))
}

func TestWaitResultRoundTrip(t *testing.T) {
	pe := &agentcore.ProviderError{StatusCode: 503, Message: "overloaded"}
	in := WaitResult{ErrorMessage: "rate limited", Message: failedMessage(pe)}
	data, err := json.Marshal(in)
	require.NoError(t, err)
	var out WaitResult
	require.NoError(t, json.Unmarshal(data, &out))
	assert.Equal(t, in, out)
}
