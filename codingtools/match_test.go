package codingtools

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompileGlob(t *testing.T) {
	tests := []struct {
		glob, path     string
		slashSensitive bool
		want           bool
	}{
		{"*.go", "main.go", true, true},
		{"*.go", "src/main.go", true, false},
		{"*.go", "src/main.go", false, true},
		{"src/**", "src/a/b.go", true, true},
		{"src/**", "src", true, false},
		{"**/lib/*", "lib/x", true, true},
		{"**/lib/*", "a/b/lib/x", true, true},
		{"a/**/b", "a/b", true, true},
		{"a/**/b", "a/x/y/b", true, true},
		{"*.{go,ts}", "x.ts", true, true},
		{"*.{go,ts}", "x.js", true, false},
		{"[fg]*.txt", "g1.txt", true, true},
		{"[!fg]*.txt", "g1.txt", true, false},
		{`\*.txt`, "*.txt", true, true},
		{`\*.txt`, "a.txt", true, false},
		{"?.md", "a.md", true, true},
		{"?.md", "/.md", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.glob+" "+tt.path, func(t *testing.T) {
			re, err := compileGlob(tt.glob, tt.slashSensitive, false)
			require.NoError(t, err)
			assert.Equal(t, tt.want, re.MatchString(tt.path))
		})
	}
	_, err := compileGlob("{a,b", true, false)
	assert.Error(t, err)
}

func TestGitignore(t *testing.T) {
	root := parseIgnore("/r", strings.NewReader("# comment\n*.log\nbuild/\n!keep.log\n/top.txt\ndocs/*.md\n\\#hash\n"))
	sub := parseIgnore("/r/sub", strings.NewReader("*.tmp\n!keep.log\n"))
	stack := ignoreStack{root, sub}
	tests := []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"/r/a.log", false, true},
		{"/r/keep.log", false, false},
		{"/r/deep/x.log", false, true},
		{"/r/build", true, true},
		{"/r/build", false, false},
		{"/r/top.txt", false, true},
		{"/r/sub/top.txt", false, false},
		{"/r/docs/a.md", false, true},
		{"/r/x/docs/a.md", false, false},
		{"/r/#hash", false, true},
		{"/r/sub/x.tmp", false, true},
		{"/r/x.tmp", false, false},
		{"/r/sub/keep.log", false, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, stack.ignored(tt.path, tt.isDir), tt.path)
	}
}

func TestTruncate(t *testing.T) {
	lines := strings.Repeat("x\n", 2500)
	h := TruncateHead(lines, Limits{})
	assert.Equal(t, TruncatedByLines, h.TruncatedBy)
	assert.Equal(t, 2000, h.OutputLines)
	assert.Equal(t, 2500, h.TotalLines)
	tail := TruncateTail(strings.Repeat("é", 30000), Limits{})
	assert.True(t, tail.LastLinePartial)
	assert.True(t, utf8.ValidString(tail.Content))
	assert.LessOrEqual(t, tail.OutputBytes, DefaultMaxBytes)
	assert.Equal(t, "1.5KB", FormatSize(1536))
	assert.Equal(t, "2.0MB", FormatSize(2*1024*1024))
	cut, ok := truncateLine(strings.Repeat("😀", 300), 501)
	assert.True(t, ok)
	assert.Equal(t, strings.Repeat("😀", 250)+"... [truncated]", cut, "a surrogate pair is never split")
}

func FuzzDecodeUTF8(f *testing.F) {
	for _, s := range []string{"abc", "\xe2\x82", "\xe2\x82a", "\xff\xfe", "é😀", "\xf0\x9f\x98", "\xed\xa0\x80"} {
		f.Add([]byte(s), 1)
	}
	f.Fuzz(func(t *testing.T, b []byte, split int) {
		whole := decodeString(b)
		if !utf8.ValidString(whole) {
			t.Fatalf("invalid output %q", whole)
		}
		if utf8.Valid(b) && whole != string(b) {
			t.Fatalf("valid input changed: %q -> %q", b, whole)
		}
		if split < 0 || split > len(b) {
			return
		}
		first, rest := decodeUTF8(nil, b[:split], false)
		second, _ := decodeUTF8(nil, append(append([]byte(nil), rest...), b[split:]...), true)
		if got := string(first) + string(second); got != whole {
			t.Fatalf("split at %d: %q, whole: %q", split, got, whole)
		}
	})
}
