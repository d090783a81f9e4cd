package session

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The histories under testdata/pi were recorded by pi-coding-agent
// 1.6.0's SessionManager (testdata/record/record.mjs): session.jsonl is
// the file pi wrote (input.jsonl, when present, is the legacy or damaged
// file pi opened and rewrote), expect.json what pi saw in it.

// observe is what record.mjs's observe reports, for a Go session.
func observe(t *testing.T, s *Session) map[string]any {
	t.Helper()
	entries := s.Entries()
	refs := make([]map[string]any, len(entries))
	labels := map[string]string{}
	contexts := make([]any, len(entries))
	for i, e := range entries {
		b := e.Base()
		sl := s.t.slots[i]
		ref := map[string]any{}
		if !sl.noID {
			ref["id"] = b.ID
		}
		if !sl.noParent {
			ref["parentId"] = nullable(b.ParentID)
		}
		if e.Type() != "" {
			ref["type"] = e.Type()
		}
		refs[i] = ref
		if l := s.Label(b.ID); l != "" {
			labels[b.ID] = l
		}
		if sl.noID {
			// pi's buildSessionContext(entries, undefined) is the context
			// of the last entry.
			contexts[i] = contextJSON(s.t.contextOf(s.t.pathFrom(s.t.slots[len(s.t.slots)-1])))
		} else {
			contexts[i] = contextJSON(s.ContextAt(b.ID))
		}
	}
	var branch []string
	for _, e := range s.Path("") {
		branch = append(branch, e.Base().ID)
	}
	var name any
	if n := s.Name(); n != "" {
		name = n
	}
	var leaf any
	if l := s.Leaf(); l != "" {
		leaf = l
	}
	obs := map[string]any{
		"header": s.Header(), "leafId": leaf, "name": name, "entries": refs, "labels": labels,
		"branch": nonNilStrings(branch), "tree": treeJSON(s.Tree()), "context": contextJSON(s.Context()), "contexts": contexts,
	}
	return normalize(t, obs)
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func contextJSON(c Context) map[string]any {
	msgs := c.Messages
	if msgs == nil {
		msgs = nil
	}
	out := map[string]any{"messages": msgs, "thinkingLevel": c.ThinkingLevel, "model": c.Model}
	if msgs == nil {
		out["messages"] = []any{}
	}
	return out
}

func treeJSON(nodes []*Node) []any {
	out := []any{}
	for _, n := range nodes {
		node := map[string]any{"children": treeJSON(n.Children)}
		if id := n.Entry.Base().ID; id != "" {
			node["id"] = id
		}
		out = append(out, node)
	}
	return out
}

// normalize round-trips v through JSON to plain values.
func normalize(t *testing.T, v any) map[string]any {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(data, &out))
	return out
}

func loadExpect(t *testing.T, dir string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "expect.json"))
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(data, &out))
	return out
}

// renameIDs rewrites, in the JSON of v, every ID of from to the ID at the
// same position in to: a version 1 migration draws new random IDs.
func renameIDs(t *testing.T, v map[string]any, from, to []any) map[string]any {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	text := string(data)
	for i := range from {
		a := from[i].(map[string]any)["id"].(string)
		b := to[i].(map[string]any)["id"].(string)
		text = strings.ReplaceAll(text, strconv.Quote(a), strconv.Quote(b))
	}
	var out map[string]any
	require.NoError(t, json.Unmarshal([]byte(text), &out))
	return out
}

func histories(t *testing.T) []string {
	dirs, err := filepath.Glob(filepath.Join("testdata", "pi", "*"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(dirs), 40, "recorded histories")
	return dirs
}

// openRecorded copies a recorded file (the legacy input when there is
// one) to a temporary directory and opens it as pi opened it.
func openRecorded(t *testing.T, dir string) *Session {
	t.Helper()
	src := filepath.Join(dir, "input.jsonl")
	if _, err := os.Stat(src); err != nil {
		src = filepath.Join(dir, "session.jsonl")
	}
	data, err := os.ReadFile(src)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	var opts *Options
	var s *Session
	sc := loadScript(t, dir)
	if sc != nil && sc.Open && src != filepath.Join(dir, "session.jsonl") {
		// pi opened the input and appended: so does Go, drawing pi's IDs.
		in, err := Open(path, &Options{ReadOnly: true})
		require.NoError(t, err)
		skip := len(in.Entries())
		require.NoError(t, in.Close())
		header, ids, times := piDraws(t, dir, skip)
		opts = replayOptions(t, header, ids, times, &s, skip)
	}
	s, err = Open(path, opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	if opts != nil {
		replay(t, s, sc)
	}
	return s
}

// goViewFixtures are the histories whose contexts hold values Go's
// message types cannot hold as pi holds them: numbers beyond an int
// (1.5, 1e21) and messages missing members (null content, an assistant
// message of a role only). The file keeps pi's values; the context holds
// them as Go's types do, so the test compares Go's context with pi's read
// into Go's types.
var goViewFixtures = regexp.MustCompile(`js-numbers|missing-fields|61-v1-compaction-index-odd`)

// goView returns a context of pi's as Go's message types hold it.
func goView(t *testing.T, ctx any) any {
	t.Helper()
	c, ok := ctx.(map[string]any)
	if !ok || c["messages"] == nil {
		return ctx
	}
	var out []any
	for _, m := range c["messages"].([]any) {
		data, err := json.Marshal(m)
		require.NoError(t, err)
		if msg, err := contextRegistry.UnmarshalMessage(data); err == nil {
			data, err = json.Marshal(msg)
			require.NoError(t, err)
			var v any
			require.NoError(t, json.Unmarshal(data, &v))
			m = v
		}
		out = append(out, m)
	}
	c["messages"] = out
	// A thinking-level or model change missing its members: "" in Go.
	if _, ok := c["thinkingLevel"]; !ok {
		c["thinkingLevel"] = ""
	}
	if m, ok := c["model"].(map[string]any); ok {
		for _, k := range []string{"provider", "modelId"} {
			if m[k] == nil {
				m[k] = ""
			}
		}
	}
	return c
}

// migratedFromV1 reports whether the history's input was a version 1
// file, whose migration draws new random IDs.
func migratedFromV1(t *testing.T, dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "input.jsonl"))
	if err != nil {
		return false
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	h, err := decodeHeader(first)
	require.NoError(t, err)
	return headerVersion(h.raw) < 2
}

// piThrows reports whether pi's context is an error: pi's context builder
// throws on a message entry without a message, where Go's leaves the entry
// out (TestMessageEntryWithoutMessage).
func piThrows(ctx any) bool {
	c, ok := ctx.(map[string]any)
	return ok && c["error"] != nil
}

// TestPiHistories: Go reads every file pi wrote (and every legacy file pi
// migrated) into the same tree, labels, name, leaf and the same context
// from every leaf.
func TestPiHistories(t *testing.T) {
	for _, dir := range histories(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want := loadExpect(t, dir)
			got := observe(t, openRecorded(t, dir))
			if migratedFromV1(t, dir) {
				got = renameIDs(t, got, got["entries"].([]any), want["entries"].([]any))
			}
			view := func(ctx any) any { return ctx }
			if goViewFixtures.MatchString(dir) {
				view = func(ctx any) any { return goView(t, ctx) }
			}
			for _, key := range []string{"header", "leafId", "name", "entries", "labels", "branch", "tree"} {
				assert.Equal(t, want[key], got[key], "%s: expected pi's, actual Go's", key)
			}
			if !piThrows(want["context"]) {
				assert.Equal(t, view(want["context"]), got["context"], "context: expected pi's, actual Go's")
			}
			wc, gc := want["contexts"].([]any), got["contexts"].([]any)
			require.Len(t, gc, len(wc))
			for i := range wc {
				if !piThrows(wc[i]) {
					assert.Equal(t, view(wc[i]), gc[i], "context from entry %d: expected pi's, actual Go's", i)
				}
			}
		})
	}
}

// TestPiFilesRoundTrip: a file pi wrote, read and written again by Go,
// is the same JSON line by line (a legacy file: the same as pi's
// migration of it, IDs aside).
func TestPiFilesRoundTrip(t *testing.T) {
	for _, dir := range histories(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			s := openRecorded(t, dir)
			written, err := os.ReadFile(s.File())
			require.NoError(t, err)
			pi, err := os.ReadFile(filepath.Join(dir, "session.jsonl"))
			require.NoError(t, err)

			// Written again whole, the session is pi's file as pi writes
			// it back: each line JSON.stringify(JSON.parse(line)).
			all, err := s.encodeAll()
			require.NoError(t, err)
			var canon bytes.Buffer
			for line := range bytes.Lines(pi) {
				if c, err := jsLine(bytes.TrimSpace(line)); err == nil && !bytes.Equal(c, []byte("null")) &&
					!bytes.Equal(c, []byte("0")) && !bytes.Equal(c, []byte("false")) && !bytes.Equal(c, []byte(`""`)) {
					canon.Write(append(c, '\n'))
				}
			}
			mask := func(b []byte) string { return string(b) }
			if migratedFromV1(t, dir) { // a version 1 migration's new IDs aside
				ids := regexp.MustCompile(`"(id|parentId|firstKeptEntryId)":"[0-9a-f]{8}"`)
				mask = func(b []byte) string { return string(ids.ReplaceAll(b, []byte(`"$1":"X"`))) }
			}
			assert.Equal(t, mask(canon.Bytes()), mask(all), "the session written again: expected pi's lines, actual Go's")

			if _, err := os.Stat(filepath.Join(dir, "input.jsonl")); err != nil || loadScript(t, dir) != nil {
				assert.Equal(t, string(pi), string(written), "the file pi wrote, as Go leaves it")
				return
			}
			// pi's migration and Go's, byte for byte.
			assert.Equal(t, mask(pi), mask(written), "expected pi's rewrite, actual Go's")
		})
	}
}

func jsonLines(t *testing.T, data []byte) []any {
	var out []any
	for line := range bytes.Lines(data) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var v any
		if json.Unmarshal(line, &v) == nil {
			out = append(out, v)
		}
	}
	return out
}

// piChecker runs record.mjs's check mode, or skips the test when node 22
// or the recorder's packages are missing, except in CI (CI=true), where
// that fails the test. PI_NODE names the node binary (default: node on
// PATH).
func piChecker(t *testing.T) func(files ...string) map[string]map[string]any {
	t.Helper()
	missing := func(why string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pi check needs %s (see session/testdata/record)", why)
		}
		t.Skipf("pi check skipped: %s", why)
	}
	node := os.Getenv("PI_NODE")
	if node == "" {
		node = "node"
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		missing("node >= 22")
	}
	major, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), ".", 2)[0])
	if major < 22 {
		missing("node >= 22, have " + strings.TrimSpace(string(out)))
	}
	rec, err := filepath.Abs(filepath.Join("testdata", "record"))
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(rec, "node_modules", "@earendil-works", "pi-coding-agent")); err != nil {
		missing("npm ci in testdata/record")
	}
	return func(files ...string) map[string]map[string]any {
		cmd := exec.Command(node, append([]string{filepath.Join(rec, "record.mjs"), "check"}, files...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		data, err := cmd.Output()
		require.NoError(t, err, stderr.String())
		var res map[string]map[string]any
		require.NoError(t, json.Unmarshal(data, &res))
		return res
	}
}

// TestGoFilesOpenInPi: every recorded history, written by Go into a new
// file, opens in pi's SessionManager with the tree and contexts Go sees.
func TestGoFilesOpenInPi(t *testing.T) {
	check := piChecker(t)
	dir := t.TempDir()
	var files []string
	want := map[string]map[string]any{}
	for _, h := range histories(t) {
		s := openRecorded(t, h)
		path := filepath.Join(dir, filepath.Base(h)+".jsonl")
		data, err := s.encodeAll()
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, data, 0o644))
		reopened, err := Open(path, &Options{ReadOnly: true})
		require.NoError(t, err)
		want[path] = observe(t, reopened)
		files = append(files, path)
	}
	files = append(files, goScripted(t, dir)...)
	for _, f := range files[len(want):] {
		s, err := Open(f, &Options{ReadOnly: true})
		require.NoError(t, err)
		want[f] = observe(t, s)
	}
	before := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		before[f] = data
	}
	got := check(files...)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.Equal(t, string(before[f]), string(data), "pi opens %s without changing it", filepath.Base(f))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			g := got[f]
			require.NotContains(t, g, "error")
			w := want[f]
			for _, key := range []string{"header", "leafId", "name", "entries", "labels", "branch", "tree"} {
				assert.Equal(t, w[key], g[key], "%s: expected Go's, actual pi's", key)
			}
			view := func(ctx any) any { return ctx }
			if goViewFixtures.MatchString(f) {
				view = func(ctx any) any { return goView(t, ctx) }
			}
			if !piThrows(g["context"]) {
				assert.Equal(t, w["context"], view(g["context"]), "context: expected Go's, actual pi's")
			}
			wc, gc := w["contexts"].([]any), g["contexts"].([]any)
			require.Len(t, gc, len(wc))
			for i := range wc {
				if !piThrows(gc[i]) {
					assert.Equal(t, wc[i], view(gc[i]), "context from entry %d: expected Go's, actual pi's", i)
				}
			}
		})
	}
}
