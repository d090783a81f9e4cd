package session

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNothingLost: lines a strict decoder would drop (JS numbers, members
// of other types, entries without a message or an ID, scalar lines) are
// entries here, as in pi: their children keep their parent, the leaf's
// context keeps its length, and a rewrite or a fork writes them back.
func TestNothingLost(t *testing.T) {
	odd := []string{
		`{"type":"usage","id":"u1","parentId":"a1","timestamp":"2025-01-01T10:00:02.000Z","kind":"k","provider":"p","model":"m","usage":{"input":1.5,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1.5,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}`,
		`{"type":"message","id":"m1","parentId":"u1","timestamp":"2025-01-01T10:00:03.000Z","message":{"role":"user","content":"late","timestamp":12345678901234567890}}`,
		`{"type":"model_change","id":"c1","parentId":"m1","timestamp":"2025-01-01T10:00:04.000Z","provider":5,"modelId":"x"}`,
		`{"type":"message","id":"n1","parentId":"c1","timestamp":"2025-01-01T10:00:05.000Z"}`,
		`[1,2]`,
		`{"type":"message","id":"m2","parentId":"n1","timestamp":"2025-01-01T10:00:06.000Z","message":{"role":"user","content":"leaf","timestamp":1.5}}`,
	}
	text := header + line1 + joinStrings(odd)
	s, err := Open(writeFile(t, text), nil)
	require.NoError(t, err)
	defer s.Close()
	entries := s.Entries()
	require.Len(t, entries, 7)
	assert.IsType(t, &UsageEntry{}, entries[1])
	assert.Equal(t, int64(1), entries[1].(*UsageEntry).Usage.Input, "held as Go's int, the file keeps 1.5")
	assert.IsType(t, &UnknownEntry{}, entries[3], "a model change whose provider is no string is kept as read")
	assert.Equal(t, "model_change", entries[3].Type())
	assert.IsType(t, &UnknownEntry{}, entries[4], "a message entry without a message")
	assert.IsType(t, &UnknownEntry{}, entries[5], "a scalar line")
	assert.Equal(t, "m2", s.Leaf())
	var path []string
	for _, e := range s.Path("") {
		path = append(path, e.Base().ID)
	}
	assert.Equal(t, []string{"a1", "u1", "m1", "c1", "n1", "m2"}, path)
	assert.Len(t, s.Context().Messages, 3, "the leaf's context: every message on its branch")

	fork, err := s.Fork("", nil)
	require.NoError(t, err)
	require.NoError(t, fork.Close())
	data, err := os.ReadFile(fork.File())
	require.NoError(t, err)
	for _, l := range []string{`"input":1.5`, `"timestamp":12345678901234567000`, `"provider":5`, `"id":"n1"`, `"timestamp":1.5`} {
		assert.Contains(t, string(data), l, "the fork keeps pi's value")
	}
}

func joinStrings(lines []string) string {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// TestMessageEntryWithoutMessage: pi's context builder throws on a path
// holding a message entry without a message; here the entry is kept and
// left out of the context (a departure that loses nothing).
func TestMessageEntryWithoutMessage(t *testing.T) {
	s, err := Open(writeFile(t, header+line1+`{"type":"message","id":"n1","parentId":"a1","timestamp":"2025-01-01T10:00:05.000Z"}`+"\n"), nil)
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, "n1", s.Leaf())
	assert.Equal(t, []agentcore.Message{s.Entries()[0].(*MessageEntry).Message}, s.Context().Messages)
}

// TestOpenMissingFile: as pi, Open of a path that does not exist is an
// empty session, its file written at the first append that gives it a
// conversation.
func TestOpenMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.jsonl")
	s, err := Open(path, &Options{ID: "fresh", Now: clock()})
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, "fresh", s.Header().ID)
	assert.Equal(t, CurrentVersion, s.Header().Version)
	_, err = s.Append(&ModelChange{Provider: "p", ModelID: "m"})
	require.NoError(t, err)
	_, err = os.Stat(path)
	assert.ErrorIs(t, err, os.ErrNotExist, "no conversation yet")
	_, err = s.AppendMessage(user("hi"))
	require.NoError(t, err)
	again, err := Open(path, &Options{ReadOnly: true})
	require.NoError(t, err)
	assert.Len(t, again.Entries(), 2)
	assert.Equal(t, "fresh", again.Header().ID)

	// A missing directory is made, as pi makes it.
	nested := filepath.Join(t.TempDir(), "a", "b", "new.jsonl")
	n, err := Open(nested, nil)
	require.NoError(t, err)
	_, err = n.AppendMessage(user("hi"))
	require.NoError(t, err)
	require.NoError(t, n.Close())
	assert.FileExists(t, nested)

	_, err = Open(filepath.Join(t.TempDir(), "bad.jsonl"), &Options{ID: "no/slash"})
	assert.ErrorIs(t, err, ErrBadID)
}

// TestUnescapeJS: what encoding/json escapes and JSON.stringify writes raw.
func TestUnescapeJS(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"\u003ca\u003e \u0026"`, `"<a> &"`},
		{`"\u2028\u2029"`, "\"\u2028\u2029\""},
		{`"\\u003c"`, `"\\u003c"`},
		{`"\\\u003c"`, `"\\<"`},
		{`"\u0001\ufffd"`, `"\u0001\ufffd"`},
		{`"\"\\"`, `"\"\\"`},
		{`"tail\u`, `"tail\u`},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, string(unescapeJS([]byte(tt.in))), tt.in)
	}
	line, err := marshalLine(&Label{EntryBase: EntryBase{ID: "x"}, TargetID: "t", Label: "<b>&\u2028"})
	require.NoError(t, err)
	assert.Equal(t, "{\"type\":\"label\",\"id\":\"x\",\"parentId\":null,\"timestamp\":\"\",\"targetId\":\"t\",\"label\":\"<b>&\u2028\"}", string(line))
}

// FuzzOpen: any file either opens or is refused with an error; one that
// opens writes back (a fork) without failing and reopens with as many
// entries.
func FuzzOpen(f *testing.F) {
	f.Add([]byte(header + line1 + line2))
	f.Add([]byte(`{"type":"session","version":"2","id":"x"}` + "\n" + line1 + "42\n[1]\n"))
	f.Add([]byte(`{"type":"session","id":"x"}` + "\n" + `{"type":"compaction","firstKeptEntryIndex":1.5}` + "\n" + line1))
	f.Add([]byte(`{"type":"session","id":"x","version":3}` + "\n" + `{"type":"message","parentId":"zz"}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		require.NoError(t, os.WriteFile(path, data, 0o644))
		s, err := Open(path, &Options{ReadOnly: true})
		if err != nil {
			return
		}
		n := len(s.Entries())
		_ = s.Context()
		_ = s.Tree()
		out, err := s.encodeAll()
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, out, 0o644))
		again, err := Open(path, &Options{ReadOnly: true})
		require.NoError(t, err)
		assert.Len(t, again.Entries(), n)
	})
}

// TestTreeCycleOfEntriesWithoutID: entries without an ID share one node in
// pi's tree, and an entry without a parentId hangs under it; pi's getTree
// loops forever on the cycle this can make, Tree here returns a finite
// tree (a departure).
func TestTreeCycleOfEntriesWithoutID(t *testing.T) {
	text := header +
		`{"type":"message","parentId":"a","timestamp":"2025-01-01T10:00:01.000Z","message":{"role":"user","content":"x","timestamp":1}}` + "\n" +
		`{"type":"message","parentId":null,"timestamp":"2025-01-01T10:00:02.000Z","message":{"role":"user","content":"y","timestamp":2}}` + "\n" +
		`{"type":"message","id":"a","timestamp":"2025-01-01T10:00:03.000Z","message":{"role":"user","content":"z","timestamp":3}}` + "\n"
	s, err := Open(writeFile(t, text), &Options{ReadOnly: true})
	require.NoError(t, err)
	roots := s.Tree()
	require.Len(t, roots, 1)
	require.Len(t, roots[0].Children, 1)
	assert.Equal(t, "a", roots[0].Children[0].Entry.Base().ID)
	assert.Empty(t, roots[0].Children[0].Children, "the cycle back to the root is cut")
}

// TestDepartures: the documented departures from pi, each keeping the
// file as pi keeps it.
func TestDepartures(t *testing.T) {
	t.Run("a label cleared in Go is written without its text", func(t *testing.T) {
		line, err := marshalLine(&Label{EntryBase: EntryBase{ID: "l1", ParentID: "a1"}, TargetID: "a1"})
		require.NoError(t, err)
		assert.NotContains(t, string(line), `"label":`, "pi's appendLabelChange(id) with no label")
	})
	t.Run("a version 1 file with a scalar line opens", func(t *testing.T) {
		v1 := `{"type":"session","id":"old","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/w"}` + "\n" +
			`{"type":"message","timestamp":"2024-01-01T00:00:01.000Z","message":{"role":"user","content":"a","timestamp":1}}` + "\n" +
			"42\n" +
			`{"type":"message","timestamp":"2024-01-01T00:00:02.000Z","message":{"role":"user","content":"b","timestamp":2}}` + "\n"
		path := writeFile(t, v1)
		s, err := Open(path, nil)
		require.NoError(t, err, "pi throws: it cannot give 42 an ID")
		defer s.Close()
		entries := s.Entries()
		require.Len(t, entries, 3)
		assert.Equal(t, entries[0].Base().ID, entries[2].Base().ParentID, "the scalar line takes no part in the chain")
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Contains(t, string(data), "\n42\n", "the line is written back")
	})
	t.Run("ForkFrom migrates an older source", func(t *testing.T) {
		v2 := `{"type":"session","version":2,"id":"old","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/w"}` + "\n" +
			`{"type":"message","id":"a1","parentId":null,"timestamp":"2024-01-01T00:00:01.000Z","message":{"role":"hookMessage","customType":"h","content":"x","display":true,"timestamp":1}}` + "\n"
		path := writeFile(t, v2)
		copied, err := ForkFrom(path, t.TempDir(), "/w2", nil)
		require.NoError(t, err)
		require.NoError(t, copied.Close())
		data, err := os.ReadFile(copied.File())
		require.NoError(t, err)
		assert.Contains(t, string(data), `"role":"custom"`, "pi would copy the hookMessage role unmigrated")
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, v2, string(src), "the source is not rewritten by a fork")
	})
}

// TestEmptyIDNamesNoEntry: "" names no entry, though a file holds entries
// without an ID: as pi refuses them, a label, a context edit and a branch
// to "" are refused.
func TestEmptyIDNamesNoEntry(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "pi", "73-no-id", "input.jsonl"))
	require.NoError(t, err)
	s, err := Open(writeFile(t, string(data)), nil)
	require.NoError(t, err)
	defer s.Close()
	_, err = s.Append(&Label{TargetID: "", Label: "x"})
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = s.Append(&ContextEdit{TargetID: ""})
	assert.ErrorIs(t, err, ErrNotFound)
	assert.ErrorIs(t, s.Branch(""), ErrNotFound)
}

// TestNewEntryIDEmptyDrawnAgain: an Options.NewEntryID that gives "" is
// asked again, so no entry appended here lacks an ID.
func TestNewEntryIDEmptyDrawnAgain(t *testing.T) {
	ids := []string{"", "e1"}
	s, err := Create(t.TempDir(), "/w", &Options{NewEntryID: func() string {
		id := ids[0]
		ids = ids[1:]
		return id
	}})
	require.NoError(t, err)
	defer s.Close()
	id, err := s.AppendMessage(user("hi"))
	require.NoError(t, err)
	assert.Equal(t, "e1", id)
}

// TestLineWithNonJSONSpace: a line JSON.parse refuses because of a space
// JSON does not allow around a value (U+00A0, a form feed) is skipped and
// reported, as pi skips it; a line of Unicode spaces only is blank.
func TestLineWithNonJSONSpace(t *testing.T) {
	nbsp := strings.Replace(line2, "{", "\u00a0{", 1)
	ff := strings.Replace(line2, "}\n", "}\f\n", 1)
	for name, text := range map[string]string{"nbsp": nbsp, "form feed": ff} {
		t.Run(name, func(t *testing.T) {
			var bad []*LineError
			s, err := Open(writeFile(t, header+line1+text+"\u00a0\u2028\n"), &Options{ReadOnly: true,
				OnBadLine: func(e *LineError) error { bad = append(bad, e); return nil }})
			require.NoError(t, err)
			assert.Len(t, s.Entries(), 1)
			require.Len(t, bad, 1, "the blank line is not reported")
			assert.Equal(t, 3, bad[0].Line)
		})
	}
}
