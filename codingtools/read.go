package codingtools

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/pi-go/agentcore"
)

// readArgs are the read tool's arguments.
type readArgs struct {
	Path   string   `json:"path"`
	Offset *float64 `json:"offset,omitempty"`
	Limit  *float64 `json:"limit,omitempty"`
}

// ReadDetails are the details of a read result: set when the text was cut.
type ReadDetails struct {
	Truncation *Truncation `json:"truncation,omitempty"`
}

// ReadImage is the structured content of a read of an image; the read of
// a text file has the text as a string instead.
type ReadImage struct {
	Type     string `json:"type"`
	Data     string `json:"data"`
	MimeType string `json:"mimeType"`
	Note     string `json:"note"`
}

// errAborted is the failure of a call whose ctx ended, in pi's words.
var errAborted = errors.New("Operation aborted")

// readTool builds the read tool.
func (s *toolset) readTool() agentcore.Tool {
	return s.declare("read", func(ctx context.Context, _ string, raw json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		var args readArgs
		if err := json.Unmarshal(raw, &args); err != nil {
			return agentcore.ToolResult{}, fmt.Errorf("decoding arguments of read: %w", err)
		}
		if ctx.Err() != nil {
			return agentcore.ToolResult{}, errAborted
		}
		res, err := s.read(ctx, args)
		if err != nil && ctx.Err() != nil {
			return agentcore.ToolResult{}, errAborted
		}
		return res, err
	})
}

func (s *toolset) read(ctx context.Context, args readArgs) (agentcore.ToolResult, error) {
	abs, err := s.paths.resolveRead(ctx, args.Path)
	if err != nil {
		return agentcore.ToolResult{}, err
	}
	info, err := s.fs.Stat(ctx, abs)
	if err != nil {
		return agentcore.ToolResult{}, &nodeError{err: err, syscall: "access", path: abs}
	}
	if info.IsDir() {
		return agentcore.ToolResult{}, errors.New("EISDIR: illegal operation on a directory, read")
	}
	mime, err := s.sniffImage(ctx, abs)
	if err != nil {
		return agentcore.ToolResult{}, &nodeError{err: err, syscall: "open", path: abs}
	}
	if mime != "" {
		return s.readImage(ctx, abs, mime)
	}
	startLine := 0
	if args.Offset != nil && *args.Offset != 0 && !math.IsNaN(*args.Offset) {
		startLine = max(0, int(math.Trunc(*args.Offset))-1)
	}
	endLine, limit := math.MaxInt, 0
	if args.Limit != nil {
		limit = int(math.Trunc(*args.Limit))
		endLine = startLine + max(0, limit)
	}
	if limit < 0 {
		// As JavaScript's slice: an end below 0 counts from the last line.
		total, err := s.selectLines(ctx, abs, &lineSelector{})
		if err != nil {
			return agentcore.ToolResult{}, err
		}
		if endLine = min(startLine+limit, total); endLine < 0 {
			endLine = max(0, total+endLine)
		}
		endLine = max(startLine, endLine)
	}
	sel := lineSelector{start: startLine, end: endLine, pieces: []string{}}
	totalFileLines, err := s.selectLines(ctx, abs, &sel)
	if err != nil {
		return agentcore.ToolResult{}, err
	}
	if startLine >= totalFileLines {
		return agentcore.ToolResult{}, fmt.Errorf("Offset %s is beyond end of file (%d lines total)", jsNumber(args.Offset), totalFileLines)
	}
	tr := sel.truncation()
	display := startLine + 1
	var text string
	var details any
	switch {
	case tr.FirstLineExceedsLimit:
		text = fmt.Sprintf("[Line %d is %s, exceeds %s limit. Use bash: sed -n '%dp' %s | head -c %d]",
			display, FormatSize(sel.firstLineBytes), FormatSize(DefaultMaxBytes), display, args.Path, DefaultMaxBytes)
		details = ReadDetails{Truncation: &tr}
	case tr.Truncated:
		end := display + tr.OutputLines - 1
		text = tr.Content
		if tr.TruncatedBy == TruncatedByLines {
			text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d. Use offset=%d to continue.]", display, end, totalFileLines, end+1)
		} else {
			text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d (%s limit). Use offset=%d to continue.]", display, end, totalFileLines, FormatSize(DefaultMaxBytes), end+1)
		}
		details = ReadDetails{Truncation: &tr}
	case args.Limit != nil && min(startLine+limit, totalFileLines) < totalFileLines:
		shown := min(startLine+limit, totalFileLines)
		text = fmt.Sprintf("%s\n\n[%d more lines in file. Use offset=%d to continue.]", tr.Content, totalFileLines-shown, shown+1)
	default:
		text = tr.Content
	}
	return agentcore.ToolResult{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text}}, Details: details, StructuredContent: text}, nil
}

// selectLines reads the file at abs through sel and returns its number of
// lines.
func (s *toolset) selectLines(ctx context.Context, abs string, sel *lineSelector) (int, error) {
	f, err := s.fs.Open(ctx, abs)
	if err != nil {
		return 0, &nodeError{err: err, syscall: "open", path: abs}
	}
	err = sel.readFrom(ctx, f)
	f.Close()
	if err != nil {
		return 0, err
	}
	return sel.line + 1, nil
}

// jsNumber writes an optional number as JavaScript's template strings do.
func jsNumber(f *float64) string {
	if f == nil {
		return "undefined"
	}
	if *f == math.Trunc(*f) && math.Abs(*f) < 1e21 {
		return fmt.Sprintf("%d", int64(*f))
	}
	return fmt.Sprint(*f)
}

// imageSniffBytes is how much of a file decides whether it is an image.
const imageSniffBytes = 4100

// sniffImage returns the image type of the file at abs, or "".
func (s *toolset) sniffImage(ctx context.Context, abs string) (string, error) {
	f, err := s.fs.Open(ctx, abs)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, imageSniffBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	return detectImage(head[:n]), nil
}

// readImage answers a read of an image: the image block as it is. pi
// resizes large images and converts BMP to PNG; see the package doc.
func (s *toolset) readImage(ctx context.Context, abs, mime string) (agentcore.ToolResult, error) {
	f, err := s.fs.Open(ctx, abs)
	if err != nil {
		return agentcore.ToolResult{}, &nodeError{err: err, syscall: "open", path: abs}
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return agentcore.ToolResult{}, err
	}
	if mime == "image/bmp" {
		note := "Read image file [image/bmp]\n[Image omitted: could not be converted to a supported inline image format.]"
		return agentcore.ToolResult{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: note}}, StructuredContent: note}, nil
	}
	if !decodes(data, mime) {
		note := "Read image file [" + mime + "]\n[Image omitted: could not be resized below the inline image size limit.]"
		return agentcore.ToolResult{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: note}}, StructuredContent: note}, nil
	}
	note := "Read image file [" + mime + "]"
	enc := base64.StdEncoding.EncodeToString(data)
	return agentcore.ToolResult{
		Content:           []agentcore.ContentBlock{agentcore.TextBlock{Text: note}, agentcore.ImageBlock{Data: enc, MimeType: mime}},
		StructuredContent: ReadImage{Type: "image", Data: enc, MimeType: mime, Note: note},
	}, nil
}

// lineSelector reads the lines [start, end) of a file in chunks, storing
// only what the read tool can show, so memory does not grow with the file.
type lineSelector struct {
	start, end int

	line           int // index of the line being read
	stored         []string
	storedBytes    int
	storedPastCaps bool
	selectedLines  int
	selectedBytes  int
	firstLineBytes int
	lastLineEmpty  bool

	pieces      []string // nil: the current line is not stored
	lineBytes   int
	lineHasText bool
}

// readChunk is the size of a read of a text file.
const readChunk = 1024 * 1024

func (l *lineSelector) readFrom(ctx context.Context, r io.Reader) error {
	l.lastLineEmpty = true
	buf := make([]byte, readChunk)
	var rest, text []byte
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if ctx.Err() != nil {
				return errAborted
			}
			chunk := buf[:n]
			if len(rest) > 0 {
				chunk = append(rest, chunk...)
			}
			text, rest = decodeUTF8(text[:0], chunk, false)
			rest = bytes.Clone(rest)
			l.selectText(string(text))
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
	}
	text, _ = decodeUTF8(text[:0], rest, true)
	l.selectText(string(text))
	if l.selected() {
		l.finishLine()
	}
	return nil
}

func (l *lineSelector) selected() bool { return l.line >= l.start && l.line < l.end }

func (l *lineSelector) selectText(text string) {
	pos, selStart := 0, -1
	for {
		sel := l.selected()
		if sel && selStart == -1 {
			selStart = pos
		}
		nl := strings.IndexByte(text[pos:], '\n')
		end := len(text)
		if nl >= 0 {
			end = pos + nl
		}
		if sel && end > pos {
			l.appendToLine(text[pos:end])
		}
		if nl < 0 {
			break
		}
		if sel {
			l.finishLine()
			if l.line+1 == l.end {
				l.selectedBytes += end - selStart
				selStart = -1
			}
		}
		l.line++
		pos = end + 1
	}
	if selStart != -1 {
		l.selectedBytes += len(text) - selStart
	}
}

func (l *lineSelector) appendToLine(piece string) {
	l.lineHasText = true
	if l.pieces == nil {
		return
	}
	if l.lineBytes <= DefaultMaxBytes {
		l.pieces = append(l.pieces, piece)
	}
	l.lineBytes += len(piece)
}

func (l *lineSelector) finishLine() {
	if l.pieces != nil {
		if l.selectedLines == 0 {
			l.firstLineBytes = l.lineBytes
		}
		if len(l.stored) > DefaultMaxLines || l.storedBytes > DefaultMaxBytes {
			l.storedPastCaps = true
		}
		text := strings.Join(l.pieces, "")
		if len(l.stored) > 0 {
			l.storedBytes++
		}
		l.storedBytes += len(text)
		l.stored = append(l.stored, text)
	}
	l.selectedLines++
	l.lastLineEmpty = !l.lineHasText
	l.pieces = nil
	if !l.storedPastCaps {
		l.pieces = []string{}
	}
	l.lineBytes, l.lineHasText = 0, false
}

// truncation is TruncateHead of the selected lines, with the totals of all
// of them.
func (l *lineSelector) truncation() Truncation {
	t := TruncateHead(strings.Join(l.stored, "\n"), Limits{})
	t.TotalBytes = l.selectedBytes
	t.TotalLines = 0
	if l.selectedBytes != 0 {
		t.TotalLines = l.selectedLines
		if l.lastLineEmpty {
			t.TotalLines--
		}
	}
	return t
}
