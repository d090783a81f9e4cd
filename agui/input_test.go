package agui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

func FuzzDecodeInput(f *testing.F) {
	f.Add([]byte(`{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"hi"}]}`))
	f.Add([]byte(`{"threadId":"t","runId":"r","messages":[{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"id":"x","role":"tool","toolCallId":"c","content":[{"type":"text","text":"ok"}]}],"tools":[{"name":"f","description":"d"}]}`))
	f.Add([]byte(`{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[{"type":"image","source":{"type":"data","value":"AA==","mimeType":"image/png"}}]}],"state":null}`))
	f.Add([]byte(`{"threadId":"t","runId":"r","messages":[{"id":"r","role":"reasoning","content":"hm","encryptedValue":"e"},{"id":"s","role":"system","content":"x"}]}`))
	f.Add([]byte(`{"threadId":"","runId":"r"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		in, msgs, err := decodeInput(body)
		if err != nil {
			assert.ErrorIs(t, err, ErrBadInput)
			return
		}
		require.NotEmpty(t, in.ThreadID)
		require.NotEmpty(t, in.RunID)
		require.Len(t, msgs, len(in.Messages))
		ids := map[agentcore.Message]string{}
		history, err := coreMessages(msgs, ids, map[blockKey]string{})
		require.NoError(t, err, "a decoded history converts")
		for _, m := range history {
			assert.NotEmpty(t, ids[m], "every message is named")
			assert.NotNil(t, wireMessages(m, ids[m], nil), "and shown back")
		}
	})
}
