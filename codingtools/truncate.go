package codingtools

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The limits pi's tools share: output is cut at whichever of the line and
// byte limits is hit first, and grep cuts each line at GrepMaxLineLength.
const (
	DefaultMaxLines   = 2000
	DefaultMaxBytes   = 50 * 1024
	GrepMaxLineLength = 500
)

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER: the line limit of
// outputs limited by bytes only.
const maxSafeInteger = 1<<53 - 1

// TruncatedBy says which limit cut an output.
type TruncatedBy string

// The limits that can cut an output; empty means not cut (null on the wire).
const (
	TruncatedByLines TruncatedBy = "lines"
	TruncatedByBytes TruncatedBy = "bytes"
)

// MarshalJSON writes "" as null, as pi does.
func (t TruncatedBy) MarshalJSON() ([]byte, error) {
	if t == "" {
		return []byte("null"), nil
	}
	return json.Marshal(string(t))
}

// Truncation describes how an output was cut; it is the truncation object
// of pi's tool details, field for field.
type Truncation struct {
	Content               string      `json:"content"`
	Truncated             bool        `json:"truncated"`
	TruncatedBy           TruncatedBy `json:"truncatedBy"`
	TotalLines            int         `json:"totalLines"`
	TotalBytes            int         `json:"totalBytes"`
	OutputLines           int         `json:"outputLines"`
	OutputBytes           int         `json:"outputBytes"`
	LastLinePartial       bool        `json:"lastLinePartial"`
	FirstLineExceedsLimit bool        `json:"firstLineExceedsLimit"`
	MaxLines              int         `json:"maxLines"`
	MaxBytes              int         `json:"maxBytes"`
}

// Limits are the caps of [TruncateHead] and [TruncateTail]; zero fields
// mean [DefaultMaxLines] and [DefaultMaxBytes].
type Limits struct {
	MaxLines int
	MaxBytes int
}

func (l Limits) orDefault() Limits {
	if l.MaxLines <= 0 {
		l.MaxLines = DefaultMaxLines
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	return l
}

// countingLines splits content into lines as pi counts them: no lines for
// "", and a final newline ends the last line rather than starting one.
func countingLines(content string) []string {
	if content == "" {
		return nil
	}
	lines := strings.Split(content, "\n")
	if strings.HasSuffix(content, "\n") {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// FormatSize writes a byte count as pi does: 512B, 1.5KB, 2.0MB.
func FormatSize(bytes int) string {
	switch {
	case bytes < 1024:
		return fmt.Sprintf("%dB", bytes)
	case bytes < 1024*1024:
		return fmt.Sprintf("%.1fKB", float64(bytes)/1024)
	default:
		return fmt.Sprintf("%.1fMB", float64(bytes)/(1024*1024))
	}
}

// measure counts content's lines and bytes; when it fits the limits, t is
// the whole of it, untruncated.
func measure(content string, limits Limits) (t Truncation, l Limits, lines []string, fits bool) {
	l = limits.orDefault()
	lines = countingLines(content)
	t = Truncation{TotalLines: len(lines), TotalBytes: len(content), MaxLines: l.MaxLines, MaxBytes: l.MaxBytes}
	if len(lines) <= l.MaxLines && len(content) <= l.MaxBytes {
		t.Content, t.OutputLines, t.OutputBytes = content, len(lines), len(content)
		return t, l, lines, true
	}
	return t, l, lines, false
}

// TruncateHead keeps the first lines of content within the limits, never a
// partial line: when the first line alone is over the byte limit the
// content is empty and FirstLineExceedsLimit is set.
func TruncateHead(content string, limits Limits) Truncation {
	t, l, lines, fits := measure(content, limits)
	if fits {
		return t
	}
	t.Truncated = true
	if len(lines[0]) > l.MaxBytes {
		t.TruncatedBy, t.FirstLineExceedsLimit = TruncatedByBytes, true
		return t
	}
	n, size := 0, 0
	t.TruncatedBy = TruncatedByLines
	for i := 0; i < len(lines) && i < l.MaxLines; i++ {
		add := len(lines[i])
		if i > 0 {
			add++
		}
		if size+add > l.MaxBytes {
			t.TruncatedBy = TruncatedByBytes
			break
		}
		n, size = n+1, size+add
	}
	if n >= l.MaxLines && size <= l.MaxBytes {
		t.TruncatedBy = TruncatedByLines
	}
	t.Content = strings.Join(lines[:n], "\n")
	t.OutputLines, t.OutputBytes = n, len(t.Content)
	return t
}

// TruncateTail keeps the last lines of content within the limits. When the
// last line alone is over the byte limit, its end is kept and
// LastLinePartial is set.
func TruncateTail(content string, limits Limits) Truncation {
	t, l, lines, fits := measure(content, limits)
	if fits {
		return t
	}
	t.Truncated, t.TruncatedBy = true, TruncatedByLines
	start, size := len(lines), 0
	var partial string
	for i := len(lines) - 1; i >= 0 && len(lines)-start < l.MaxLines; i-- {
		add := len(lines[i])
		if start < len(lines) {
			add++
		}
		if size+add > l.MaxBytes {
			t.TruncatedBy = TruncatedByBytes
			if start == len(lines) {
				partial = tailBytes(lines[i], l.MaxBytes)
				size = len(partial)
				t.LastLinePartial = true
			}
			break
		}
		start, size = i, size+add
	}
	kept := lines[start:]
	if t.LastLinePartial {
		kept = []string{partial}
	}
	if len(kept) >= l.MaxLines && size <= l.MaxBytes {
		t.TruncatedBy = TruncatedByLines
	}
	t.Content = strings.Join(kept, "\n")
	t.OutputLines, t.OutputBytes = len(kept), len(t.Content)
	return t
}

// tailBytes returns at most the last max bytes of s, starting on a
// character boundary.
func tailBytes(s string, max int) string {
	if len(s) <= max {
		return s
	}
	start := len(s) - max
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return s[start:]
}

// truncateLine cuts line to max UTF-16 code units (JavaScript's length,
// which pi counts), never inside a surrogate pair, and marks the cut.
func truncateLine(line string, max int) (string, bool) {
	if utf16Len(line) <= max {
		return line, false
	}
	units := 0
	for i, r := range line {
		n := 1
		if r >= 0x10000 {
			n = 2
		}
		if units+n > max {
			return line[:i] + "... [truncated]", true
		}
		units += n
	}
	return line, false
}

// utf16Len is JavaScript's length of s; an invalid byte counts as one.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += max(1, utf16.RuneLen(r))
	}
	return n
}
