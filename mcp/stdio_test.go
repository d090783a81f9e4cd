package agentmcp_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	agentmcp "github.com/pi-go/agentcore/mcp"
)

// TestStdioServer drives the test server as a subprocess over stdio:
// calls, a 50 MB result, a call that never answers, a server that exits
// mid-call and is started again on the next call.
func TestStdioServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a subprocess")
	}
	// No call timeout: the 50 MB result must fail on its size, however
	// slow the machine.
	ts := connect(t, &agentmcp.Options{CallTimeout: -1},
		agentmcp.Server{Name: "proc", Transport: agentmcp.Command{Path: stdioServer(t)}})
	require.Equal(t, []string{"big", "echo", "exit", "hang", "pid"}, names(ts.Tools()))

	res, err := call(t, t.Context(), toolNamed(t, ts, "echo"), `{"text":"over stdio"}`)
	require.NoError(t, err)
	assert.Equal(t, "over stdio", res.Text())
	pid, err := call(t, t.Context(), toolNamed(t, ts, "pid"), `{}`)
	require.NoError(t, err)

	t.Run("a 50 MB result", func(t *testing.T) {
		_, err := call(t, t.Context(), toolNamed(t, ts, "big"), `{"bytes":52428800}`)
		require.ErrorIs(t, err, agentmcp.ErrResultTooLarge)
		assert.ErrorIs(t, err, agentmcp.ErrConnectionLost)
		assert.Contains(t, err.Error(), `mcp server "proc": tool "big": agentmcp: tool result too large`)
	})
	t.Run("a result that never comes", func(t *testing.T) {
		ts := connect(t, &agentmcp.Options{CallTimeout: 100 * time.Millisecond},
			agentmcp.Server{Name: "proc", Transport: agentmcp.Command{Path: stdioServer(t)}})
		_, err := call(t, t.Context(), toolNamed(t, ts, "hang"), `{}`)
		require.ErrorIs(t, err, agentmcp.ErrTimeout)
		assert.Equal(t, `mcp server "proc": tool "hang": agentmcp: no result in time: no result within 100ms`, err.Error())
	})
	t.Run("a server that exits", func(t *testing.T) {
		_, err := call(t, t.Context(), toolNamed(t, ts, "exit"), `{}`)
		require.ErrorIs(t, err, agentmcp.ErrConnectionLost)
		assert.Contains(t, err.Error(), `mcp server "proc": tool "exit": agentmcp: connection to the server lost (the next call reconnects)`)

		again, err := call(t, t.Context(), toolNamed(t, ts, "pid"), `{}`)
		require.NoError(t, err)
		assert.NotEqual(t, pid.Text(), again.Text(), "a new process answers")
	})
}
