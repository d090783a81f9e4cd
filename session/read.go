package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/pi-go/agentcore"
)

// ErrNotSession is returned for a file whose first entry is not a session
// header: pi refuses such a file, and so does this package.
var ErrNotSession = errors.New("session: not a session file")

// ErrBadLine is the error every [*LineError] wraps.
var ErrBadLine = errors.New("session: bad line")

// LineError is a line of a session file that is not an entry. pi skips
// such lines, and so does this package unless [Options.OnBadLine] says
// otherwise.
type LineError struct {
	// Line is the line's number, from 1.
	Line int
	// Torn is true for a last line without its newline that does not
	// parse: the tail of a write a crash cut short.
	Torn bool
	// Err is why it is not an entry.
	Err error
}

// Error names the line and what is wrong with it.
func (e *LineError) Error() string {
	what := "corrupt line"
	if e.Torn {
		what = "torn last line"
	}
	return fmt.Sprintf("session: %s %d: %v", what, e.Line, e.Err)
}

// Unwrap returns [ErrBadLine] and the cause.
func (e *LineError) Unwrap() []error { return []error{ErrBadLine, e.Err} }

// contents is what a session file holds, read and migrated.
type contents struct {
	header Header
	t      *tree
	// migrated is true when the file was of an older version.
	migrated bool
	// tornTail is true when the file does not end with a newline.
	tornTail bool
	// size is the number of bytes read.
	size int64
}

// readContents reads a session file line by line, holding one line at a
// time besides the tree. Every entry is decoded, so that a line that is
// not one is found now, but in a version 3 file only the tree fields and
// the line's place are kept of those [onDisk] leaves there: src reads
// them back. onBad is told of every line that is not an entry; its error
// stops the read.
func readContents(r io.Reader, src *source, onBad func(*LineError) error) (*contents, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	c := &contents{}
	var headerFound bool
	var raw []*slot // entries before migration: legacy compactions included
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		off := c.size
		c.size += int64(len(line))
		if err != nil && err != io.EOF {
			return nil, err
		}
		last := err == io.EOF
		if last && len(line) > 0 {
			c.tornTail = true
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) > 0 {
			if bad := c.decodeLine(trimmed, src, off, len(line), &headerFound, &raw); bad != nil {
				if !headerFound && len(raw) == 0 && isEntryObject(trimmed) {
					return nil, fmt.Errorf("%w: line %d is not a header", ErrNotSession, n)
				}
				lerr := &LineError{Line: n, Torn: last && c.tornTail, Err: bad}
				if onBad != nil {
					if err := onBad(lerr); err != nil {
						return nil, err
					}
				}
			}
		}
		if last {
			break
		}
	}
	if !headerFound {
		if len(raw) == 0 && c.size == 0 {
			return nil, io.EOF
		}
		return nil, ErrNotSession
	}
	if c.header.Version < CurrentVersion {
		// An older file is migrated, and so rewritten, whole: its entries
		// stay in memory.
		entries := make([]Entry, len(raw))
		for i, sl := range raw {
			entries[i] = sl.entry
		}
		c.migrated = migrate(&c.header, entries)
		for i, e := range entries {
			if lc, ok := e.(*legacyCompaction); ok {
				entries[i] = lc.Compaction
			}
		}
		c.t = newTree(entries)
		return c, nil
	}
	c.t = newTree(nil)
	for _, sl := range raw {
		if sl.entry == nil {
			c.t.src = src
		}
		c.t.addSlot(sl)
	}
	return c, nil
}

// isEntryObject reports whether line is a JSON object with a "type": a
// parsed entry, which as the first one must be the header.
func isEntryObject(line []byte) bool {
	var v struct {
		Type *string `json:"type"`
	}
	return json.Unmarshal(line, &v) == nil && v.Type != nil
}

// decodeLine decodes the header or an entry into c; it returns why the
// line is not one.
func (c *contents) decodeLine(line []byte, src *source, off int64, n int, headerFound *bool, raw *[]*slot) error {
	if !*headerFound {
		var h struct {
			Type          string  `json:"type"`
			Version       *int    `json:"version"`
			ID            *string `json:"id"`
			Timestamp     string  `json:"timestamp"`
			Cwd           any     `json:"cwd"`
			ParentSession string  `json:"parentSession"`
		}
		if err := json.Unmarshal(line, &h); err != nil {
			return err
		}
		if h.Type != "session" || h.ID == nil {
			return errors.New("not a session header")
		}
		c.header = Header{Version: 1, ID: *h.ID, Timestamp: h.Timestamp, ParentSession: h.ParentSession}
		if h.Version != nil {
			c.header.Version = *h.Version
		}
		if cwd, ok := h.Cwd.(string); ok {
			c.header.Cwd = cwd
		}
		*headerFound = true
		return nil
	}
	e, err := decodeEntry(line, src.reg)
	if err != nil {
		return err
	}
	if e.Type() == "session" {
		return nil // a second header: pi keeps it out of the tree
	}
	if c.header.Version < CurrentVersion || !onDisk(e.Type()) {
		sl := &slot{base: *e.Base(), typ: e.Type(), entry: e}
		sl.role, sl.model = summarize(e)
		*raw = append(*raw, sl)
		return nil
	}
	if lc, ok := e.(*legacyCompaction); ok {
		e = lc.Compaction
	}
	sl := &slot{base: *e.Base(), typ: e.Type(), off: off, n: n}
	sl.role, sl.model = summarize(e)
	sl.model = src.intern(sl.model)
	*raw = append(*raw, sl)
	return nil
}

// migrate brings entries of a version 1 or 2 file to version 3 as pi
// does, and reports whether it changed anything.
//
// Version 1 to 2: every entry gets a new ID and the previous entry as its
// parent, and a compaction's firstKeptEntryIndex (an index into the
// file's entries, the header being 0) becomes the ID of that entry.
// Version 2 to 3: the message role "hookMessage" becomes "custom".
func migrate(h *Header, entries []Entry) bool {
	if h.Version >= CurrentVersion {
		return false
	}
	if h.Version < 2 {
		ids := make(map[string]bool, len(entries))
		prev := ""
		for _, e := range entries {
			b := e.Base()
			b.ID = newEntryID(ids)
			ids[b.ID] = true
			b.ParentID = prev
			prev = b.ID
		}
		for _, e := range entries {
			lc, ok := e.(*legacyCompaction)
			if !ok {
				continue
			}
			// Index 0 is the header, which is no entry: the reference is
			// dropped, as pi drops it.
			if i := lc.index - 1; i >= 0 && i < len(entries) {
				lc.FirstKeptEntryID = entries[i].Base().ID
			}
		}
	}
	for _, e := range entries {
		m, ok := e.(*MessageEntry)
		if !ok {
			continue
		}
		if cm, ok := m.Message.(*agentcore.CustomMessage); ok && cm.RoleName == "hookMessage" {
			m.Message = renameRole(cm, "custom")
		}
	}
	h.Version = CurrentVersion
	return true
}

// renameRole returns m with its role changed.
func renameRole(m *agentcore.CustomMessage, role string) agentcore.Message {
	var fields map[string]json.RawMessage
	if json.Unmarshal(m.Raw, &fields) != nil {
		return m
	}
	fields["role"], _ = json.Marshal(role)
	raw, err := json.Marshal(fields)
	if err != nil {
		return m
	}
	out, err := agentcore.UnmarshalMessage(raw)
	if err != nil {
		return m
	}
	return out
}
