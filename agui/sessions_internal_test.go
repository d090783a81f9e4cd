package agui

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// TestFileFailsTheNextRequest: a record the session could not write fails
// the run's next model request, through the thread file's layer, as the
// session's own layer does.
func TestFileFailsTheNextRequest(t *testing.T) {
	tf := newSessions(t.TempDir(), nil).file("t1")
	require.NoError(t, tf.open())
	s := tf.s
	require.NoError(t, s.Close()) // appends now fail
	hooks := agentcore.NewStack([]agentcore.Layer{tf}, agentcore.Hooks{}).Hooks()
	tf.listen(t.Context(), &agentcore.MessageEndEvent{Message: &agentcore.UserMessage{Content: agentcore.Text("hi")}})
	_, err := hooks.PrepareRequest(context.Background(), agentcore.RequestContext{})
	require.Error(t, err)
}
