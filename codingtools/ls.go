package codingtools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/pi-go/agentcore"
)

// lsArgs are the ls tool's arguments.
type lsArgs struct {
	Path  string   `json:"path,omitempty"`
	Limit *float64 `json:"limit,omitempty"`
}

// LsDetails are the details of an ls result; nil when nothing was cut.
type LsDetails struct {
	EntryLimitReached int         `json:"entryLimitReached,omitempty"`
	Truncation        *Truncation `json:"truncation,omitempty"`
}

// Default result limits of ls, grep and find.
const (
	lsDefaultLimit   = 500
	grepDefaultLimit = 100
	findDefaultLimit = 1000
)

// effectiveLimit is floor(limit), at least 1, def when limit is absent.
func effectiveLimit(limit *float64, def int) int {
	if limit == nil || math.IsNaN(*limit) {
		return def
	}
	if *limit >= maxSafeInteger {
		return maxSafeInteger
	}
	return max(1, int(math.Floor(*limit)))
}

// lsTool builds the ls tool.
func (s *toolset) lsTool() agentcore.Tool {
	return s.declare("ls", func(ctx context.Context, _ string, raw json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		var args lsArgs
		if err := json.Unmarshal(raw, &args); err != nil {
			return agentcore.ToolResult{}, fmt.Errorf("decoding arguments of ls: %w", err)
		}
		if ctx.Err() != nil {
			return agentcore.ToolResult{}, errAborted
		}
		res, err := s.ls(ctx, args)
		if err != nil && ctx.Err() != nil {
			return agentcore.ToolResult{}, errAborted
		}
		return res, err
	})
}

func (s *toolset) ls(ctx context.Context, args lsArgs) (agentcore.ToolResult, error) {
	dir, err := s.paths.resolve(ctx, cmp(args.Path, "."))
	if err != nil {
		return agentcore.ToolResult{}, err
	}
	limit := effectiveLimit(args.Limit, lsDefaultLimit)
	info, err := s.fs.Stat(ctx, dir)
	if err != nil {
		return agentcore.ToolResult{}, fmt.Errorf("Path not found: %s", dir)
	}
	if !info.IsDir() {
		return agentcore.ToolResult{}, fmt.Errorf("Not a directory: %s", dir)
	}
	entries, err := s.fs.ReadDir(ctx, dir)
	if err != nil {
		return agentcore.ToolResult{}, fmt.Errorf("Cannot read directory: %v", &nodeError{err: err, syscall: "scandir", path: dir})
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	slices.SortStableFunc(names, func(a, b string) int {
		if c := collate(strings.ToLower(a), strings.ToLower(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var results []string
	limitReached := false
	for _, name := range names {
		if len(results) >= limit {
			limitReached = true
			break
		}
		st, err := s.fs.Stat(ctx, filepath.Join(dir, name))
		switch {
		case errors.Is(err, ErrOutsideDir):
			// A confined link leading out: listed, never followed.
		case err != nil:
			continue
		case st.IsDir():
			name += "/"
		}
		results = append(results, name)
	}
	if len(results) == 0 {
		return textResult("(empty directory)", nil), nil
	}
	notice := ""
	if !limitReached {
		limit = 0
	} else {
		notice = fmt.Sprintf("%d entries limit reached. Use limit=%d for more", limit, limit*2)
	}
	return listResult(results, notice, func(cut *Truncation) LsDetails {
		return LsDetails{EntryLimitReached: limit, Truncation: cut}
	}), nil
}

// listResult is the result of a listing of lines cut to
// [DefaultMaxBytes], with limitNotice (when not "") and the cut's notice;
// its details are mk's, nil when zero.
func listResult[D comparable](lines []string, limitNotice string, mk func(cut *Truncation) D) agentcore.ToolResult {
	text, cut := listing(TruncateHead(strings.Join(lines, "\n"), Limits{MaxLines: maxSafeInteger}), limitNotice, "")
	var zero D
	if d := mk(cut); d != zero {
		return textResult(text, d)
	}
	return textResult(text, nil)
}

// listing is the text of a listing cut to [DefaultMaxBytes] with pi's
// notices appended: before (when not ""), the cut's (when cut), after
// (when not ""). It returns the truncation when the text was cut.
func listing(tr Truncation, before, after string) (string, *Truncation) {
	var notices []string
	var cut *Truncation
	if before != "" {
		notices = append(notices, before)
	}
	if tr.Truncated {
		notices = append(notices, FormatSize(DefaultMaxBytes)+" limit reached")
		cut = &tr
	}
	if after != "" {
		notices = append(notices, after)
	}
	if len(notices) == 0 {
		return tr.Content, nil
	}
	return tr.Content + "\n\n[" + strings.Join(notices, ". ") + "]", cut
}

// textResult is a result of one text block; nil details stay nil.
func textResult(text string, details any) agentcore.ToolResult {
	return agentcore.ToolResult{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text}}, Details: details}
}

// cmp returns s, or def when s is empty.
func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// icuPunctuation is the order of ASCII punctuation and symbols in the root
// collation of Unicode (CLDR), which JavaScript's localeCompare uses: all
// of them sort before digits, and digits before letters.
const icuPunctuation = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"

// collationClass orders a rune's kind: whitespace and punctuation, then
// digits, then letters and the rest.
func collationKey(r rune) (class int, key rune) {
	if i := strings.IndexRune(icuPunctuation, r); i >= 0 {
		return 0, rune(i)
	}
	if r >= '0' && r <= '9' {
		return 1, r
	}
	return 2, foldLatin(r)
}

// latinFolds maps accented Latin letters to their base letter, which is
// what the root collation compares first.
var latinFolds = func() map[rune]rune {
	m := map[rune]rune{}
	for base, accented := range map[rune]string{
		'a': "àáâãäåāăą", 'c': "çćĉċč", 'd': "ďđ", 'e': "èéêëēĕėęě", 'g': "ĝğġģ", 'h': "ĥħ",
		'i': "ìíîïĩīĭįı", 'j': "ĵ", 'k': "ķ", 'l': "ĺļľŀł", 'n': "ñńņňŉ", 'o': "òóôõöøōŏő",
		'r': "ŕŗř", 's': "śŝşšß", 't': "ţťŧ", 'u': "ùúûüũūŭůűų", 'w': "ŵ", 'y': "ýÿŷ", 'z': "źżž",
	} {
		for _, r := range accented {
			m[r] = base
		}
	}
	return m
}()

func foldLatin(r rune) rune {
	if b, ok := latinFolds[r]; ok {
		return b
	}
	return r
}

// collate compares two names approximately as localeCompare does (see the
// package doc for where it differs).
func collate(a, b string) int {
	ar, br := primaryRunes(a), primaryRunes(b)
	for i := 0; i < len(ar) && i < len(br); i++ {
		ac, ak := collationKey(ar[i])
		bc, bk := collationKey(br[i])
		if ac != bc {
			return ac - bc
		}
		if ak != bk {
			if ak < bk {
				return -1
			}
			return 1
		}
	}
	return len(ar) - len(br)
}

// primaryRunes are the runes of s that the first level of collation
// compares: combining marks (the accents of decomposed, NFD, letters)
// are left out, as precomposed letters are folded to their base.
func primaryRunes(s string) []rune {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if !unicode.Is(unicode.Mn, r) {
			out = append(out, r)
		}
	}
	return out
}
