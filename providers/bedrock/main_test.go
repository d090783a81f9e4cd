package bedrock

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestMain fails the package when a test leaves a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// testAPIKey is the bearer token the recordings were made with.
const testAPIKey = "test-bedrock-token"

// testTarget is this provider for providertest, with the model and key
// pi-ai 1.6.0 was recorded with (testdata/stream, recorded by
// testdata/record.mjs).
func testTarget(t testing.TB) providertest.Target {
	model, _ := providertest.StreamCases(t)
	return providertest.Target{
		New:         newStream,
		Model:       model,
		APIKey:      testAPIKey,
		Success:     providertest.ReadTestdata(t, "stream", "text.bin"),
		HeadBody:    providertest.ReadTestdata(t, "stream", "text-head.bin"),
		ErrorText:   normalizeErrorMessage,
		BodyMark:    `"messages":[{"role":"user","content":[{"text":"Hi"}`,
		Refusal:     []byte(`{"__type":"com.amazon.coral.availability#ThrottlingException","message":"slow down"}`),
		RefusalText: "Throttling error: slow down",
		ObservedEvents: func(body []byte) []string {
			names, payloads, err := readFrames(body)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]string, len(names))
			for i := range names {
				out[i] = `{"` + names[i] + `":` + payloads[i] + `}`
			}
			return out
		},
		WithLimits: func(client *http.Client, l providertest.Limits) agentcore.StreamFn {
			return StreamFn(Options{BaseURL: "http://provider.test", HTTPClient: client, Getenv: providertest.NoEnv, MaxResponseBytes: l.MaxResponseBytes, IdleTimeout: l.IdleTimeout})
		},
		ToolCallHead: concat(eventFrame("messageStart", `{"role":"assistant"}`),
			eventFrame("contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"tooluse_1","name":"write"}}}`)),
		ArgumentsEvent: argumentsEvent,
		ToolCallTail: concat(eventFrame("contentBlockStop", `{"contentBlockIndex":0}`),
			eventFrame("messageStop", `{"stopReason":"tool_use"}`),
			eventFrame("metadata", `{"usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2}}`)),
	}
}

// argumentsEvent is the event adding piece to the tool call of block 0.
func argumentsEvent(piece string) []byte { return argumentsAt(0, piece) }

// argumentsAt is the event adding piece to the tool call of block index.
func argumentsAt(index int, piece string) []byte {
	return eventFrame("contentBlockDelta", `{"contentBlockIndex":`+strconv.Itoa(index)+`,"delta":{"toolUse":{"input":`+quote(piece)+`}}}`)
}

// newStream returns a stream function for a server at baseURL, with no
// environment.
func newStream(baseURL string, client *http.Client) agentcore.StreamFn {
	return StreamFn(Options{BaseURL: baseURL, HTTPClient: client, Getenv: providertest.NoEnv})
}

// refusedConnection matches a refused connection in Node's words and Go's.
var refusedConnection = regexp.MustCompile(`^(connect ECONNREFUSED \S+|dial tcp \S+: connect: connection refused)$`)

// normalizeErrorMessage replaces the parts of an error text that differ
// between JavaScript and Go: the platform's words for a refused
// connection.
func normalizeErrorMessage(s string) string {
	if refusedConnection.MatchString(s) {
		return "<connection refused>"
	}
	return s
}

// concat joins the messages of a body.
func concat(frames ...[]byte) []byte {
	var b []byte
	for _, f := range frames {
		b = append(b, f...)
	}
	return b
}

// quote is s as a JSON string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
