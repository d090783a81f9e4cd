package agui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
)

// TestAnswerBytesStayFlat holds a 100-turn conversation the way the
// official client does (sending back what it holds) and compares the
// answer's bytes at turn 1 and turn 100: the answer carries the turn,
// not the conversation.
func TestAnswerBytesStayFlat(t *testing.T) {
	fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: strings.Repeat("word ", 40)}}, Chunks: 4}
	})
	h := agui.New(agui.Options{NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
		return agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream}, nil
	}})
	var msgs []message
	sizes := map[int]int{}
	for turn := 1; turn <= 100; turn++ {
		msgs = append(msgs, message{ID: fmt.Sprint("u", turn), Role: "user", Content: json.RawMessage(`"and then?"`)})
		sent, err := json.Marshal(msgs)
		require.NoError(t, err)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(input("t1", fmt.Sprint("r", turn), string(sent), ""))))
		require.Equal(t, http.StatusOK, rec.Code)
		sizes[turn] = rec.Body.Len()
		var evs []event
		for line := range strings.Lines(rec.Body.String()) {
			if rest, ok := strings.CutPrefix(line, "data: "); ok {
				var e event
				require.NoError(t, json.Unmarshal([]byte(rest), &e))
				evs = append(evs, e)
			}
		}
		msgs = held(msgs, evs)
		require.Len(t, msgs, 2*turn)
	}
	t.Logf("answer bytes: turn 1 %d, turn 100 %d", sizes[1], sizes[100])
	assert.LessOrEqual(t, float64(sizes[100]), 1.5*float64(sizes[1]))
}
