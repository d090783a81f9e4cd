package codingtools

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Edit is one replacement of the edit tool.
type Edit struct {
	OldText string `json:"oldText"`
	NewText string `json:"newText"`
}

// replacement is an edit matched in a text: the bytes [index, index+length)
// become newText.
type replacement struct {
	editIndex     int
	index, length int
	newText       string
}

// normalizeToLF turns CRLF and lone CR line endings into LF.
func normalizeToLF(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// fuzzyReplacer maps the typographic characters models retype in ASCII.
var fuzzyReplacer = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'",
	"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u201f", `"`,
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
	"\u00a0", " ", "\u2002", " ", "\u2003", " ", "\u2004", " ", "\u2005", " ", "\u2006", " ", "\u2007", " ",
	"\u2008", " ", "\u2009", " ", "\u200a", " ", "\u202f", " ", "\u205f", " ", "\u3000", " ",
)

// isJSSpace is JavaScript's whitespace, which String.prototype.trimEnd
// strips.
func isJSSpace(r rune) bool {
	return r == '\ufeff' || unicode.IsSpace(r) || unicode.Is(unicode.Zs, r) || r == '\u2028' || r == '\u2029'
}

// normalizeForFuzzyMatch is the text edit matches in when the exact text
// is not found: trailing whitespace stripped from each line, typographic
// quotes, dashes and spaces made ASCII. (pi applies NFKC first; see the
// package doc.)
func normalizeForFuzzyMatch(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, isJSSpace)
	}
	return fuzzyReplacer.Replace(strings.Join(lines, "\n"))
}

// fuzzyNormal reports whether normalizeForFuzzyMatch(s) is s: no line
// ends in whitespace and no character is one fuzzyReplacer maps. It lets
// a large file skip the normalized copy.
func fuzzyNormal(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == '\n' && i > 0 && s[i-1] != '\n' && endsInSpace(s[:i]) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if fuzzyReplacer.Replace(string(r)) != string(r) {
			return false
		}
		i += size
	}
	return strings.HasSuffix(s, "\n") || !endsInSpace(s)
}

// endsInSpace reports whether s ends in JavaScript whitespace.
func endsInSpace(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return len(s) > 0 && isJSSpace(r)
}

// fuzzyFind finds oldText in content, exactly or else in the fuzzy
// normalized forms of both; the index and length are in the text matched.
func fuzzyFind(content, oldText string) (index, length int, fuzzy, found bool) {
	if i := strings.Index(content, oldText); i >= 0 {
		return i, len(oldText), false, true
	}
	fc, fo := normalizeForFuzzyMatch(content), normalizeForFuzzyMatch(oldText)
	if i := strings.Index(fc, fo); i >= 0 {
		return i, len(fo), true, true
	}
	return -1, 0, false, false
}

func editError(path string, index, total int, one, many string) error {
	if total == 1 {
		return errors.New(fmt.Sprintf(one, path))
	}
	return errors.New(fmt.Sprintf(many, index, path))
}

// applyEdits matches every edit against content (LF line endings) and
// applies them, with pi's errors for an empty, missing, repeated or
// overlapping oldText and for no change.
func applyEdits(content string, edits []Edit, path string) (newContent string, reps []replacement, err error) {
	norm := make([]Edit, len(edits))
	for i, e := range edits {
		norm[i] = Edit{OldText: normalizeToLF(e.OldText), NewText: normalizeToLF(e.NewText)}
		if norm[i].OldText == "" {
			if len(edits) == 1 {
				return "", nil, fmt.Errorf("oldText must not be empty in %s.", path)
			}
			return "", nil, fmt.Errorf("edits[%d].oldText must not be empty in %s.", i, path)
		}
	}
	usedFuzzy := false
	for _, e := range norm {
		if _, _, fuzzy, _ := fuzzyFind(content, e.OldText); fuzzy {
			usedFuzzy = true
		}
	}
	base := content
	if usedFuzzy {
		base = normalizeForFuzzyMatch(content)
	}
	fuzzyBase := base
	if !fuzzyNormal(base) {
		fuzzyBase = normalizeForFuzzyMatch(base)
	}
	var matched []replacement
	for i, e := range norm {
		idx, length, _, found := fuzzyFind(base, e.OldText)
		if !found {
			if len(norm) == 1 {
				return "", nil, fmt.Errorf("Could not find the exact text in %s. The old text must match exactly including all whitespace and newlines.", path)
			}
			return "", nil, fmt.Errorf("Could not find edits[%d] in %s. The oldText must match exactly including all whitespace and newlines.", i, path)
		}
		if n := strings.Count(fuzzyBase, normalizeForFuzzyMatch(e.OldText)); n > 1 {
			if len(norm) == 1 {
				return "", nil, fmt.Errorf("Found %d occurrences of the text in %s. The text must be unique. Please provide more context to make it unique.", n, path)
			}
			return "", nil, fmt.Errorf("Found %d occurrences of edits[%d] in %s. Each oldText must be unique. Please provide more context to make it unique.", n, i, path)
		}
		matched = append(matched, replacement{editIndex: i, index: idx, length: length, newText: e.NewText})
	}
	slices.SortStableFunc(matched, func(a, b replacement) int { return a.index - b.index })
	for i := 1; i < len(matched); i++ {
		prev, cur := matched[i-1], matched[i]
		if prev.index+prev.length > cur.index {
			return "", nil, fmt.Errorf("edits[%d] and edits[%d] overlap in %s. Merge them into one edit or target disjoint regions.", prev.editIndex, cur.editIndex, path)
		}
	}
	reps = matched
	if usedFuzzy {
		if reps, err = widenToLines(content, base, matched); err != nil {
			return "", nil, err
		}
	}
	newContent = applyReplacements(content, reps, 0)
	if newContent == content {
		if len(norm) == 1 {
			return "", nil, fmt.Errorf("No changes made to %s. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.", path)
		}
		return "", nil, fmt.Errorf("No changes made to %s. The replacements produced identical content.", path)
	}
	return newContent, reps, nil
}

// applyReplacements applies sorted, disjoint replacements whose indexes
// are offset by offset to content.
func applyReplacements(content string, reps []replacement, offset int) string {
	var b strings.Builder
	size := len(content)
	for _, r := range reps {
		size += len(r.newText) - r.length
	}
	b.Grow(max(0, size))
	pos := 0
	for _, r := range reps {
		i := r.index - offset
		b.WriteString(content[pos:i])
		b.WriteString(r.newText)
		pos = i + r.length
	}
	b.WriteString(content[pos:])
	return b.String()
}

// lineSpan is a line with its ending, as offsets.
type lineSpan struct{ start, end int }

func lineSpans(s string) []lineSpan {
	var out []lineSpan
	off := 0
	for _, l := range splitAfterNewlines(s) {
		out = append(out, lineSpan{off, off + len(l)})
		off += len(l)
	}
	return out
}

// widenToLines turns replacements matched in base, a normalized view of
// original with the same lines, into replacements of whole lines of
// original, so that untouched lines keep their bytes.
func widenToLines(original, base string, reps []replacement) ([]replacement, error) {
	origLines, baseLines := lineSpans(original), lineSpans(base)
	if len(origLines) != len(baseLines) {
		return nil, errors.New("Cannot preserve unchanged lines because the base content has a different line count.")
	}
	type group struct {
		startLine, endLine int
		reps               []replacement
	}
	var groups []*group
	for _, r := range reps {
		start := -1
		for i, l := range baseLines {
			if r.index >= l.start && r.index < l.end {
				start = i
				break
			}
		}
		if start == -1 {
			return nil, errors.New("Replacement range is outside the base content.")
		}
		end := start
		for end < len(baseLines) && baseLines[end].end < r.index+r.length {
			end++
		}
		if end >= len(baseLines) {
			return nil, errors.New("Replacement range is outside the base content.")
		}
		if n := len(groups); n > 0 && start < groups[n-1].endLine {
			g := groups[n-1]
			g.endLine = max(g.endLine, end+1)
			g.reps = append(g.reps, r)
			continue
		}
		groups = append(groups, &group{startLine: start, endLine: end + 1, reps: []replacement{r}})
	}
	out := make([]replacement, len(groups))
	for i, g := range groups {
		bs, be := baseLines[g.startLine].start, baseLines[g.endLine-1].end
		os := origLines[g.startLine].start
		out[i] = replacement{index: os, length: origLines[g.endLine-1].end - os, newText: applyReplacements(base[bs:be], g.reps, bs)}
	}
	return out, nil
}

// lineEndingAt is the line ending of the line holding offset: its own, or
// the previous line's for an unterminated last line; a lone CR only in a
// file without LF.
func lineEndingAt(content string, offset int) string {
	lf := strings.IndexByte(content[offset:], '\n')
	if lf >= 0 {
		lf += offset
	} else {
		lf = strings.LastIndexByte(content[:min(offset+1, len(content))], '\n')
	}
	if lf == -1 {
		if strings.Contains(content, "\r") {
			return "\r"
		}
		return "\n"
	}
	if lf > 0 && content[lf-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// applyToOriginal applies replacements matched in normalizeToLF(original)
// to original itself: text outside them keeps its bytes and line endings,
// and the new text takes the line ending of the line it starts on.
func applyToOriginal(original string, reps []replacement) string {
	crlfBefore := 0
	next := strings.Index(original, "\r\n")
	toOriginal := func(off int) int {
		for next != -1 && next-crlfBefore < off {
			crlfBefore++
			n := strings.Index(original[next+2:], "\r\n")
			if n == -1 {
				next = -1
			} else {
				next += 2 + n
			}
		}
		return off + crlfBefore
	}
	var parts strings.Builder
	endsWithCR := false
	push := func(p string) {
		if p == "" {
			return
		}
		if endsWithCR && p[0] == '\n' {
			parts.WriteByte('\n')
		}
		parts.WriteString(p)
		endsWithCR = p[len(p)-1] == '\r'
	}
	pos := 0
	for _, r := range reps {
		start := toOriginal(r.index)
		push(original[pos:start])
		if ending := lineEndingAt(original, start); ending == "\n" {
			push(r.newText)
		} else {
			push(strings.ReplaceAll(r.newText, "\n", ending))
		}
		pos = toOriginal(r.index + r.length)
	}
	push(original[pos:])
	return parts.String()
}
