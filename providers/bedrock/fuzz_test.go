package bedrock

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
)

// framing is a transport that answers with its base's response, whose
// body is lines of text, re-encoded as an event stream: each line
// "TYPE PAYLOAD" an event, "!TYPE PAYLOAD" an exception. The fuzzer then
// varies the events rather than the checksums.
type framing struct{ base http.RoundTripper }

func (f framing) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := f.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	text, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var body []byte
	for line := range strings.Lines(string(text)) {
		name, payload, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		if exception, ok := strings.CutPrefix(name, "!"); ok {
			body = append(body, encodeFrame(payload, ":exception-type", exception, ":message-type", "exception")...)
			continue
		}
		body = append(body, eventFrame(name, payload)...)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// FuzzDecoder streams arbitrary sequences of events and checks the
// stream's contract (see providertest's Target.FuzzStream).
func FuzzDecoder(f *testing.F) {
	target := testTarget(f)
	target.New = func(baseURL string, client *http.Client) agentcore.StreamFn {
		return newStream(baseURL, &http.Client{Transport: framing{client.Transport}})
	}
	target.FuzzStream(f,
		[]byte("messageStart {\"role\":\"assistant\"}\ncontentBlockDelta {\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hi\"}}\ncontentBlockStop {\"contentBlockIndex\":0}\nmessageStop {\"stopReason\":\"end_turn\"}\nmetadata {\"usage\":{\"inputTokens\":1}}\n"),
		[]byte("messageStart {\"role\":\"assistant\"}\ncontentBlockStart {\"contentBlockIndex\":1,\"start\":{\"toolUse\":{\"toolUseId\":\"t\",\"name\":\"f\"}}}\ncontentBlockDelta {\"contentBlockIndex\":1,\"delta\":{\"toolUse\":{\"input\":\"{\\\"a\\\":[1,\"}}}\ncontentBlockDelta {\"contentBlockIndex\":1,\"delta\":{\"text\":\"x\"}}\nmessageStop {\"stopReason\":\"tool_use\"}\n"),
		[]byte("contentBlockDelta {\"contentBlockIndex\":0,\"delta\":{\"reasoningContent\":{\"text\":\"t\",\"signature\":\"s\",\"redactedContent\":\"AAE=\"}}}\ncontentBlockDelta {\"contentBlockIndex\":0,\"delta\":{\"reasoningContent\":{\"redactedContent\":\"!!\"}}}\n!throttlingException {\"message\":\"slow\"}\n"),
		[]byte("metadata {\"usage\":{\"inputTokens\":-1,\"outputTokens\":1e400,\"cacheDetails\":[{\"ttl\":\"1h\",\"inputTokens\":\"x\"}]}}\nmessageStop {}\n"),
	)
}
