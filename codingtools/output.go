package codingtools

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// outputAccumulator keeps a command's output with bounded memory, as pi's
// OutputAccumulator: a decoded tail for display, the counts of the whole,
// and a temporary file with the full raw output once it outgrows the
// limits. It is written from one goroutine and read after the writes.
type outputAccumulator struct {
	maxLines, maxBytes, maxRolling int
	tempDir, prefix                string

	rest                   []byte // undecoded bytes of an incomplete character
	raw                    [][]byte
	tail                   string
	tailStartsAtLine       bool
	totalRaw, totalDecoded int
	completedLines         int
	totalLines             int
	currentLineBytes       int
	hasOpenLine            bool
	finished               bool

	tempPath string
	temp     *os.File
	tempErr  error
}

func newOutputAccumulator(tempDir, prefix string) *outputAccumulator {
	return &outputAccumulator{
		maxLines: DefaultMaxLines, maxBytes: DefaultMaxBytes, maxRolling: 2 * DefaultMaxBytes,
		tempDir: tempDir, prefix: prefix, tailStartsAtLine: true,
	}
}

// Write takes a chunk of output; it never fails.
func (o *outputAccumulator) Write(p []byte) (int, error) {
	if o.finished {
		return 0, errors.New("codingtools: write after the output finished")
	}
	o.totalRaw += len(p)
	var text []byte
	text, rest := decodeUTF8(nil, append(o.rest, p...), false)
	o.rest = bytes.Clone(rest)
	o.appendDecoded(string(text))
	if o.temp != nil || o.shouldUseTemp() {
		o.ensureTemp()
		o.writeTemp(p)
	} else if len(p) > 0 {
		o.raw = append(o.raw, bytes.Clone(p))
	}
	return len(p), nil
}

func (o *outputAccumulator) finish() {
	if o.finished {
		return
	}
	o.finished = true
	text, _ := decodeUTF8(nil, o.rest, true)
	o.rest = nil
	o.appendDecoded(string(text))
	if o.shouldUseTemp() {
		o.ensureTemp()
	}
}

func (o *outputAccumulator) appendDecoded(text string) {
	if text == "" {
		return
	}
	o.totalDecoded += len(text)
	o.tail += text
	if len(o.tail) > o.maxRolling*2 {
		o.trimTail()
	}
	if n := strings.Count(text, "\n"); n == 0 {
		o.currentLineBytes += len(text)
		o.hasOpenLine = true
	} else {
		o.completedLines += n
		last := text[strings.LastIndexByte(text, '\n')+1:]
		o.currentLineBytes = len(last)
		o.hasOpenLine = last != ""
	}
	o.totalLines = o.completedLines
	if o.hasOpenLine {
		o.totalLines++
	}
}

func (o *outputAccumulator) trimTail() {
	start := len(o.tail) - o.maxRolling
	for start < len(o.tail) && !utf8.RuneStart(o.tail[start]) {
		start++
	}
	if start > 0 {
		o.tailStartsAtLine = o.tail[start-1] == '\n'
	}
	o.tail = o.tail[start:]
}

func (o *outputAccumulator) snapshotText() string {
	if o.tailStartsAtLine {
		return o.tail
	}
	if i := strings.IndexByte(o.tail, '\n'); i >= 0 {
		return o.tail[i+1:]
	}
	return o.tail
}

// snapshot is the tail of the output as the model sees it, and the path of
// the full output when it was saved.
func (o *outputAccumulator) snapshot(persist bool) (Truncation, string) {
	text := o.snapshotText()
	if text == "" {
		text = o.tail
	}
	t := TruncateTail(text, Limits{MaxLines: o.maxLines, MaxBytes: o.maxBytes})
	truncated := o.totalLines > o.maxLines || o.totalDecoded > o.maxBytes
	by := TruncatedBy("")
	if truncated {
		by = t.TruncatedBy
		if by == "" {
			by = TruncatedByLines
			if o.totalDecoded > o.maxBytes {
				by = TruncatedByBytes
			}
		}
	}
	t.Truncated, t.TruncatedBy, t.TotalLines, t.TotalBytes = truncated, by, o.totalLines, o.totalDecoded
	if persist && truncated {
		o.ensureTemp()
	}
	return t, o.tempPath
}

func (o *outputAccumulator) shouldUseTemp() bool {
	return o.totalRaw > o.maxBytes || o.totalDecoded > o.maxBytes || o.totalLines > o.maxLines
}

func (o *outputAccumulator) ensureTemp() {
	if o.tempPath != "" || o.tempErr != nil {
		return
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	p := filepath.Join(o.tempDir, o.prefix+"-"+hex.EncodeToString(id[:])+".log")
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		o.tempErr = err
		return
	}
	o.tempPath, o.temp = p, f
	for _, c := range o.raw {
		o.writeTemp(c)
	}
	o.raw = nil
}

func (o *outputAccumulator) writeTemp(p []byte) {
	if o.temp != nil && o.tempErr == nil {
		_, o.tempErr = o.temp.Write(p)
	}
}

func (o *outputAccumulator) closeTemp() error {
	if o.temp == nil {
		return o.tempErr
	}
	err := o.temp.Close()
	o.temp = nil
	return errors.Join(o.tempErr, err)
}

// fullOutput is the whole output for structured content: when longer than
// max bytes, its first and last halves around an omission marker.
func (o *outputAccumulator) fullOutput(max int) (string, bool) {
	if o.tempPath == "" {
		return decodeString(bytes.Join(o.raw, nil)), false
	}
	f, err := os.Open(o.tempPath)
	if err != nil {
		return "", false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", false
	}
	size := int(info.Size())
	if size <= max {
		b, _ := io.ReadAll(f)
		return decodeString(b), false
	}
	headN := max / 2
	tailN := max - headN
	head, tail := make([]byte, headN), make([]byte, tailN)
	_, _ = f.ReadAt(head, 0)
	_, _ = f.ReadAt(tail, int64(size-tailN))
	headText, _ := decodeUTF8(nil, head, false)
	start := 0
	for start < len(tail) && tail[start]&0xc0 == 0x80 {
		start++
	}
	return string(headText) + "\n\n[... " + itoa(size-headN-tailN) + " bytes omitted ...]\n\n" + decodeString(tail[start:]), true
}
