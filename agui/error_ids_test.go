package agui_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorsCutIDs: a client's huge interrupt ID or tool name comes back
// cut in the error, not echoed whole.
func TestErrorsCutIDs(t *testing.T) {
	huge := strings.Repeat("z", 4<<20)
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "deploy", deployArgs{Service: "web"})))
	url := gated(t, fake)
	sent := "[" + userMsg("u1", "deploy") + "]"
	_, evs := post(t, t.Context(), url, input("t1", "r1", sent, ""))
	require.Len(t, evs[len(evs)-1].Outcome.Interrupts, 1)
	msgs := history(t, sent, evs)
	_, evs = post(t, t.Context(), url, withResume(input("t1", "r2", msgs, ""),
		`[{"interruptId":"c1","status":"cancelled"},{"interruptId":"`+huge+`","status":"cancelled"}]`))
	require.Equal(t, []string{"RUN_STARTED", "RUN_ERROR"}, types(evs))
	assert.Less(t, len(evs[1].Message), 1000)
	assert.Contains(t, evs[1].Message, "is not open")

	status, evs := post(t, t.Context(), url, input("t2", "r1", sent, `[{"name":"`+huge+`","description":"x","parameters":{"type":"object"}}]`))
	assert.Equal(t, http.StatusBadRequest, status)
	require.NotEmpty(t, evs)
	assert.Less(t, len(evs[0].Message), 1000)
}
