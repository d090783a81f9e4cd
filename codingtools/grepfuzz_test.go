package codingtools

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// FuzzGrepSameAsLineByLine searches a few files made of the fuzzer's text
// (split at "\x01") for its pattern, and compares every result, of the
// directory search and of the search of one named file, with the
// line-by-line search's.
func FuzzGrepSameAsLineByLine(f *testing.F) {
	f.Add("deadline", "DeadLine exceeded\r\nx\n\x01deadline\n\ndeadline", true, uint8(1), uint8(2))
	f.Add(`^$|k`, "\n\n\u212A\x01a\xffb\x00c\n\x01\xef\xbb\xbfk", true, uint8(3), uint8(1))
	f.Add(`(?i:ab)c|x$`, "ABc\nx\r\nx\x01abC\nabc", false, uint8(0), uint8(0))
	f.Add(`e$`, "line\nline\nline\x01e", false, uint8(9), uint8(2))
	f.Fuzz(func(t *testing.T, pattern, text string, ignoreCase bool, contextLines, limit uint8) {
		if ignoreCase {
			pattern = "(?i)" + pattern
		}
		re, err := regexp.Compile(pattern)
		if err != nil || newlineError(pattern) != nil {
			return
		}
		files := strings.Split(text, "\x01")
		if len(files) > 6 {
			return
		}
		m := fstest.MapFS{}
		for i, data := range files {
			m[fmt.Sprintf("t/d%d/f%d.txt", i%2, i)] = &fstest.MapFile{Data: []byte(data), Mode: 0o644}
		}
		s := newToolset("/t", &Options{FS: &memFS{m: m}})
		lim, ctxn := 1+int(limit%8), int(contextLines%5)
		if limit >= 200 {
			lim = maxSafeInteger
		}
		want := &grepOutput{limit: lim, context: ctxn}
		referenceGrep(t, s, "/t", "", re, want)
		got := &grepOutput{limit: lim, context: ctxn}
		require.NoError(t, s.grepDir(context.Background(), "/t", "", newLineMatcher(re), got))
		require.Equal(t, outputOf(want), outputOf(got), "directory")

		want = &grepOutput{limit: lim, context: ctxn}
		require.NoError(t, s.grepFile(context.Background(), "/t/d0/f0.txt", "f0.txt", re, false, want))
		got = &grepOutput{limit: lim, context: ctxn}
		require.NoError(t, s.grepOne(context.Background(), "/t/d0/f0.txt", newLineMatcher(re), got))
		require.Equal(t, outputOf(want), outputOf(got), "one file")
	})
}
