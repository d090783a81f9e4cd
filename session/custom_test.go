package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestLayerRecordsCustomMessages: a layer's custom message (role
// "custom", kept as an agentcore.CustomMessage) is recorded as pi's
// custom_message entry, and a transcript set later that extends it
// appends only what is new.
func TestLayerRecordsCustomMessages(t *testing.T) {
	s, err := Create(t.TempDir(), "/work", nil)
	require.NoError(t, err)
	defer s.Close()
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), Layers: []agentcore.Layer{s.Layer()}})
	agent.AppendMessage(&agentcore.UserMessage{Content: agentcore.Text("hi")})
	nudge := &agentcore.CustomMessage{RoleName: "custom",
		Raw: []byte(`{"role":"custom","customType":"structured","content":"Call the tool.","display":false,"timestamp":0}`)}
	agent.AppendMessage(nudge)
	agent.SetMessages(append(agent.Messages(), &agentcore.UserMessage{Content: agentcore.Text("again")}))

	var types []string
	for _, e := range s.Path(s.Leaf()) {
		types = append(types, e.Type())
	}
	assert.Equal(t, []string{"message", "custom_message", "message"}, types)
	assert.Len(t, s.Entries(), 3, "no branch: the custom message is the recorded one")
	c, ok := s.Path(s.Leaf())[1].(*CustomMessageEntry)
	require.True(t, ok)
	assert.Equal(t, "structured", c.CustomType)
	assert.Equal(t, "Call the tool.", c.Content.Text())
	assert.False(t, c.Display)
}
