package agui_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
	"github.com/pi-go/agentcore/internal/golden"
)

// messageID matches the IDs the handler makes.
var messageID = regexp.MustCompile(`msg-[A-Z2-7]{26}`)

// normalizeIDs numbers the handler's IDs in order of appearance.
func normalizeIDs(b []byte) []byte {
	seen := map[string]string{}
	return messageID.ReplaceAllFunc(b, func(id []byte) []byte {
		n, ok := seen[string(id)]
		if !ok {
			n = fmt.Sprintf("msg-%d", len(seen)+1)
			seen[string(id)] = n
		}
		return []byte(n)
	})
}

// TestGoldenWire records the exact answers of two requests: a run that
// thinks, calls a server tool and a front-end tool, and the run that the
// front-end tool's answer resumes.
func TestGoldenWire(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(
		agentcoretest.Response{Content: []agentcore.ContentBlock{
			agentcore.ThinkingBlock{Thinking: "Check the weather, then ask.", ThinkingSignature: "sig-1"},
			agentcore.TextBlock{Text: "Checking Paris."},
			tc("c1", "weather", cityArgs{"Paris"}),
		}, Chunks: 2},
		agentcoretest.ToolCallResponse(tc("c2", "confirm", map[string]string{"question": "Go outside?"})),
		agentcoretest.TextResponse("Enjoy the sun."),
	)
	srv, _ := server(t, fake, agui.Options{}, weather)
	var out bytes.Buffer
	// send posts body, with the messages msgs, and returns the messages
	// the client holds after the answer.
	send := func(msgs string, body string) string {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		fmt.Fprintf(&out, "# %d %s\n", resp.StatusCode, resp.Header.Get("Content-Type"))
		out.Write(data)
		var evs []event
		for line := range strings.Lines(string(data)) {
			if rest, ok := strings.CutPrefix(line, "data: "); ok {
				var e event
				require.NoError(t, json.Unmarshal([]byte(rest), &e))
				evs = append(evs, e)
			}
		}
		held, err := json.Marshal(held(sentMessages(t, msgs), evs))
		require.NoError(t, err)
		return string(held)
	}
	first := "[" + userMsg("u1", "Should I go out in Paris?") + "]"
	history := send(first, input("t1", "r1", first, confirmTool))
	// The client sends back the messages it holds with its answer.
	second := history[:len(history)-1] + `,{"id":"a2","role":"tool","toolCallId":"c2","content":"yes"}]`
	send(second, input("t1", "r2", second, confirmTool))
	golden.Check(t, normalizeIDs(out.Bytes()), "testdata/wire.golden")
}
