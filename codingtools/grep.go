package codingtools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"regexp"
	"strings"

	"github.com/pi-go/agentcore"
)

// grepArgs are the grep tool's arguments.
type grepArgs struct {
	Pattern    string   `json:"pattern"`
	Path       string   `json:"path,omitempty"`
	Glob       string   `json:"glob,omitempty"`
	IgnoreCase bool     `json:"ignoreCase,omitempty"`
	Literal    bool     `json:"literal,omitempty"`
	Context    *float64 `json:"context,omitempty"`
	Limit      *float64 `json:"limit,omitempty"`
}

// GrepDetails are the details of a grep result; nil when nothing was cut.
type GrepDetails struct {
	MatchLimitReached int         `json:"matchLimitReached,omitempty"`
	Truncation        *Truncation `json:"truncation,omitempty"`
	LinesTruncated    bool        `json:"linesTruncated,omitempty"`
}

// binarySniff is how far ripgrep looks for a NUL byte before it gives up
// on a file as binary: its first buffer.
const binarySniff = 64 * 1024

// grepTool builds the grep tool.
func (s *toolset) grepTool() agentcore.Tool {
	return s.declare("grep", func(ctx context.Context, _ string, raw json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		var args grepArgs
		if err := json.Unmarshal(raw, &args); err != nil {
			return agentcore.ToolResult{}, fmt.Errorf("decoding arguments of grep: %w", err)
		}
		if ctx.Err() != nil {
			return agentcore.ToolResult{}, errAborted
		}
		res, err := s.grep(ctx, args)
		if ctx.Err() != nil {
			return agentcore.ToolResult{}, errAborted
		}
		return res, err
	})
}

// grepOutput gathers grep's lines as pi does from ripgrep's events.
type grepOutput struct {
	limit, context int
	lines          []string
	bytes, count   int
	matches        int
	limitHit       bool
	limitReached   bool
	trailingEnd    int
	lastFile       string
	linesTruncated bool
	done           bool
}

func (o *grepOutput) push(file string, n int, text string, match bool) {
	o.lastFile = file
	text = strings.TrimSuffix(text, "\n")
	text = strings.TrimSuffix(text, "\r")
	text, cut := truncateLine(text, GrepMaxLineLength)
	if cut {
		o.linesTruncated = true
	}
	sep := "-"
	if match {
		sep = ":"
	}
	line := fmt.Sprintf("%s%s%d%s %s", file, sep, n, sep, text)
	if o.bytes-1 <= DefaultMaxBytes {
		o.lines = append(o.lines, line)
	}
	o.bytes += len(line) + 1
	o.count++
}

// event takes one line ripgrep would print: a match or a context line.
func (o *grepOutput) event(file string, n int, text string, match bool) {
	if o.done {
		return
	}
	if !o.limitHit {
		o.push(file, n, text, match)
		if !match {
			return
		}
		if o.matches++; o.matches >= o.limit {
			o.limitHit = true
			o.trailingEnd = n + o.context
		}
		return
	}
	inWindow := file == o.lastFile && n <= o.trailingEnd
	if inWindow {
		o.push(file, n, text, false)
	}
	if match {
		o.limitReached = true
	}
	if o.limitReached && !(inWindow && n < o.trailingEnd) {
		o.done = true
	}
}

func (s *toolset) grep(ctx context.Context, args grepArgs) (agentcore.ToolResult, error) {
	searchPath, err := s.paths.resolve(ctx, cmp(args.Path, "."))
	if err != nil {
		return agentcore.ToolResult{}, err
	}
	info, err := s.fs.Stat(ctx, searchPath)
	if err != nil {
		return agentcore.ToolResult{}, fmt.Errorf("Path not found: %s", searchPath)
	}
	contextLines := 0
	if args.Context != nil && *args.Context > 0 {
		contextLines = int(math.Min(math.Floor(*args.Context), maxSafeInteger))
	}
	expr := args.Pattern
	if args.Literal {
		expr = regexp.QuoteMeta(expr)
	}
	if args.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return agentcore.ToolResult{}, regexError(args.Pattern, err)
	}
	if err := newlineError(expr); err != nil {
		return agentcore.ToolResult{}, err
	}
	out := &grepOutput{limit: effectiveLimit(args.Limit, grepDefaultLimit), context: contextLines}
	m := newLineMatcher(re)
	if !info.IsDir() {
		err = s.grepOne(ctx, searchPath, m, out)
	} else {
		err = s.grepDir(ctx, searchPath, args.Glob, m, out)
	}
	if err != nil {
		return agentcore.ToolResult{}, err
	}
	if out.matches == 0 {
		return textResult("No matches found", nil), nil
	}
	tr := TruncateHead(strings.Join(out.lines, "\n"), Limits{MaxLines: maxSafeInteger})
	tr.TotalLines, tr.TotalBytes = out.count, out.bytes-1
	var details GrepDetails
	before, after := "", ""
	if out.limitReached {
		before = fmt.Sprintf("%d matches limit reached. Use limit=%d for more, or refine pattern", out.limit, out.limit*2)
		details.MatchLimitReached = out.limit
	}
	if out.linesTruncated {
		after = fmt.Sprintf("Some lines truncated to %d chars. Use read tool to see full lines", GrepMaxLineLength)
		details.LinesTruncated = true
	}
	text, cut := listing(tr, before, after)
	if details.Truncation = cut; details == (GrepDetails{}) {
		return textResult(text, nil), nil
	}
	return textResult(text, details), nil
}

// stripDotSlash drops the leading "./" of a glob, which ripgrep never
// matches, keeping a leading "!".
func stripDotSlash(glob string) string {
	neg := strings.HasPrefix(glob, "!")
	g := strings.TrimPrefix(glob, "!")
	for strings.HasPrefix(g, "./") {
		g = g[2:]
	}
	if neg {
		return "!" + g
	}
	return g
}

// grepOne searches the file named by a grep call's path: no file is
// binary then.
func (s *toolset) grepOne(ctx context.Context, abs string, m *lineMatcher, out *grepOutput) error {
	var scratch []byte
	res, _ := searchWhole(ctx, s.fs, abs, m, false, false, out.limit+1, nil, &scratch)
	if res.big {
		return s.grepFile(ctx, abs, path.Base(abs), m.re, false, out)
	}
	emitHits(out, path.Base(abs), res.text, res.hits)
	return nil
}

// grepFile searches one file line by line as it streams in: the search
// of a file too big to read whole, reporting matches and the
// context lines around them to out. An implicit file (found by walking)
// with a NUL byte in its first 64 KB is binary and skipped, and the
// search of one stops at a later NUL, as ripgrep does.
func (s *toolset) grepFile(ctx context.Context, abs, name string, re *regexp.Regexp, implicit bool, out *grepOutput) error {
	f, err := s.fs.Open(ctx, abs)
	if err != nil {
		return nil // unreadable files are skipped
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, binarySniff)
	if implicit {
		head, _ := r.Peek(binarySniff)
		if bytes.IndexByte(head, 0) >= 0 {
			return nil
		}
	}
	type line struct {
		n    int
		text string
	}
	// before is a ring of the last lines that are not matches nor trailing
	// context, at most out.context, the oldest at head: a line in or out
	// costs the same whatever the context.
	var before []line
	head := 0
	after := 0
	for n := 1; ; n++ {
		raw, err := r.ReadBytes('\n')
		if len(raw) == 0 && err != nil {
			return nil // the end, or a read error: the text ends here
		}
		if ctx.Err() != nil {
			return errAborted
		}
		if implicit && bytes.IndexByte(raw, 0) >= 0 {
			return nil
		}
		if n == 1 {
			raw = bytes.TrimPrefix(raw, utf8BOM) // ripgrep drops a UTF-8 BOM
			if len(raw) == 0 {
				return nil // a file of a BOM alone has no line, as for ripgrep
			}
		}
		text := decodeString(raw)
		body := strings.TrimSuffix(text, "\n")
		switch {
		case re.MatchString(body):
			for i := range before {
				b := before[(head+i)%len(before)]
				out.event(name, b.n, b.text, false)
			}
			before, head = before[:0], 0
			out.event(name, n, text, true)
			after = out.context
		case after > 0:
			out.event(name, n, text, false)
			after--
		case out.context > 0:
			if len(before) < out.context {
				before = append(before, line{n, text})
			} else {
				before[head] = line{n, text}
				head = (head + 1) % len(before)
			}
		}
		if out.done || err != nil {
			return nil
		}
	}
}
