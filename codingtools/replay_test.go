package codingtools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordedCall is one call of testdata/pi_calls.json, written by
// testdata/record/record.mjs running pi-coding-agent 1.6.0's own tools.
type recordedCall struct {
	Name   string          `json:"name"`
	Tool   string          `json:"tool"`
	Cwd    string          `json:"cwd"` // "link": tools working in a link to the corpus copy
	Args   json.RawMessage `json:"args"`
	Error  *string         `json:"error"`
	Result *struct {
		Content           json.RawMessage `json:"content"`
		Details           json.RawMessage `json:"details"`
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	} `json:"result"`
}

// knownDifferences are the recorded calls whose Go result is not pi's, by
// name, with the reason; the package doc lists them too.
var knownDifferences = map[string]string{}

func TestReplayPiCalls(t *testing.T) {
	for _, v := range sessionVariables {
		t.Setenv(v, "set") // pi's bash leaves them out
	}
	root := copyCorpus(t)
	tempDir := t.TempDir()
	opts := &Options{TempDir: tempDir}
	require.NoError(t, os.Symlink(root, root+"-link"))
	t.Cleanup(func() { os.Remove(root + "-link") })
	replay(t, root, map[string][]agentcore.Tool{"": AllTools(root, opts), "link": AllTools(root+"-link", opts)}, tempDir, false)
}

// TestReplayPiCallsInMemory replays the calls of the file tools against an
// FS that is not the disk: the same results prove the tools use only FS.
func TestReplayPiCallsInMemory(t *testing.T) {
	const root = "/project/repo"
	fsys := memCorpus(t, copyCorpus(t), root)
	replay(t, root, map[string][]agentcore.Tool{"": AllTools(root, &Options{FS: fsys})}, t.TempDir(), true)
}

// loadCalls reads the recorded calls.
func loadCalls(t *testing.T) []recordedCall {
	data, err := os.ReadFile(filepath.Join("testdata", "pi_calls.json"))
	require.NoError(t, err)
	var calls []recordedCall
	require.NoError(t, json.Unmarshal(data, &calls))
	require.GreaterOrEqual(t, len(calls), 150)
	return calls
}

// replay runs the recorded calls in order with tools, working in root, and
// compares their results with pi's; skipBash leaves bash's calls out.
// sets are the tools by the working directory of the calls ("", "link").
func replay(t *testing.T, root string, sets map[string][]agentcore.Tool, tempDir string, skipBash bool) {
	calls := loadCalls(t)
	var err error
	toolsAt := map[string]map[string]agentcore.Tool{}
	for cwd, list := range sets {
		toolsAt[cwd] = map[string]agentcore.Tool{}
		for _, tool := range list {
			toolsAt[cwd][tool.Name] = tool
		}
	}
	fullOutput := regexp.MustCompile(regexp.QuoteMeta(tempDir) + `/pi-bash-[0-9a-f]+\.log`)
	scrub := func(s string) string {
		return fullOutput.ReplaceAllString(strings.ReplaceAll(s, root, "$ROOT"), "$$FULL_OUTPUT")
	}
	asJSON := func(v any) any {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		var out any
		require.NoError(t, json.Unmarshal([]byte(scrub(string(b))), &out))
		return out
	}
	rawJSON := func(r json.RawMessage) any {
		var out any
		if len(r) > 0 {
			require.NoError(t, json.Unmarshal(r, &out))
		}
		return out
	}
	same := 0
	for i, c := range calls {
		if skipBash && c.Tool == "bash" {
			continue
		}
		require.Contains(t, toolsAt, c.Cwd, c.Name)
		tool := toolsAt[c.Cwd][c.Tool]
		args := c.Args
		if tool.PrepareArguments != nil {
			args, err = tool.PrepareArguments(args)
			require.NoError(t, err)
		}
		res, err := tool.Execute(context.Background(), fmt.Sprintf("call-%d", i), args, nil)
		name := fmt.Sprintf("%03d %s", i, c.Name)
		if reason, ok := knownDifferences[c.Name]; ok {
			t.Logf("%s: kept difference: %s", name, reason)
			continue
		}
		ok := true
		if c.Error != nil {
			ok = assert.Error(t, err, name) && assert.Equal(t, *c.Error, scrub(err.Error()), name)
		} else if assert.NoError(t, err, name) {
			ok = assert.Equal(t, rawJSON(c.Result.Content), asJSON(res.Content), name+": content") && ok
			ok = assert.Equal(t, rawJSON(c.Result.Details), asJSON(res.Details), name+": details") && ok
			ok = assert.Equal(t, c.Result.IsError, res.IsError, name+": isError") && ok
			if c.Tool == "read" || c.Tool == "bash" {
				got := asJSON(res.StructuredContent)
				if m, isMap := got.(map[string]any); isMap && c.Tool == "bash" {
					delete(m, "wall_time_seconds")
				}
				ok = assert.Equal(t, rawJSON(c.Result.StructuredContent), got, name+": structuredContent") && ok
			}
		} else {
			ok = false
		}
		if ok {
			same++
		}
	}
	t.Logf("%d of %d recorded calls equal pi's, %d kept differences", same, len(calls), len(knownDifferences))
}
