package structured_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
	"github.com/pi-go/agentcore/structured"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestThroughAGUI serves an Answer through the agui handler the way the
// package documents: the partial values become the client's state, and
// the value is read from the transcript OnTranscript hands over.
func TestThroughAGUI(t *testing.T) {
	answer := structured.New[Line](structured.Options[Line]{
		OnPartial: func(ctx context.Context, l Line) {
			state, _ := json.Marshal(l)
			_ = agui.SetState(ctx, state)
		},
	})
	var (
		mu         sync.Mutex
		transcript []agentcore.Message
	)
	h := agui.New(agui.Options{
		NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
			fake := agentcoretest.New(call("c1", valid))
			return agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Layers: []agentcore.Layer{answer}}, nil
		},
		OnTranscript: func(_ string, messages []agentcore.Message) {
			mu.Lock()
			transcript = messages
			mu.Unlock()
		},
	})
	srv := httptest.NewServer(h)
	defer srv.Close()

	body := `{"threadId":"t1","runId":"r1","state":{},"messages":[{"id":"u1","role":"user","content":"Extract."}],"tools":[],"context":[],"forwardedProps":{}}`
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)

	var snapshots []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type     string          `json:"type"`
			Snapshot json.RawMessage `json:"snapshot"`
		}
		require.NoError(t, json.Unmarshal([]byte(data), &ev))
		if ev.Type == "STATE_SNAPSHOT" {
			snapshots = append(snapshots, string(ev.Snapshot))
		}
	}
	require.Len(t, snapshots, 1)
	assert.JSONEq(t, `{"item":"tea","quantity":2,"price":3.5}`, snapshots[0])

	mu.Lock()
	defer mu.Unlock()
	got, err := answer.Result(transcript)
	require.NoError(t, err)
	assert.Equal(t, Line{Item: "tea", Quantity: 2, Price: 3.5}, got)
}
