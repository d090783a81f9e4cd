package providertest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// ReadTestdata returns the file testdata/parts... of the test's package;
// a file that cannot be read fails the test.
func ReadTestdata(t testing.TB, parts ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{"testdata"}, parts...)...))
	require.NoError(t, err)
	return data
}

// StreamCase is one entry of testdata/stream/cases.json: a recorded
// response and how it is served.
type StreamCase struct {
	// Name names the recording, testdata/stream/NAME.pi.json.
	Name string `json:"name"`
	// Status, ContentType (empty means text/event-stream) and Headers
	// are served with Body, the file under testdata/stream.
	Status      int               `json:"status"`
	Body        string            `json:"body"`
	ContentType string            `json:"contentType"`
	Headers     map[string]string `json:"headers"`
}

// StreamCases reads testdata/stream/cases.json: the model the reference
// ran the bodies with, and the cases.
func StreamCases(t testing.TB) (agentcore.Model, []StreamCase) {
	t.Helper()
	var file struct {
		Model agentcore.Model `json:"model"`
		Cases []StreamCase    `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(ReadTestdata(t, "stream", "cases.json"), &file))
	return file.Model, file.Cases
}
