package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/internal/limit"
)

// Errors of a [Session]'s methods, tested with errors.Is.
var (
	// ErrNotFound is returned for an entry ID the session does not hold.
	ErrNotFound = errors.New("session: entry not found")
	// ErrInvalid is returned for an entry the session refuses to append.
	ErrInvalid = errors.New("session: invalid entry")
	// ErrBadID is returned for a session ID pi would refuse.
	ErrBadID = errors.New("session: invalid session id")
	// ErrReadOnly is returned by a write to a session opened read-only.
	ErrReadOnly = errors.New("session: read-only")
	// ErrClosed is returned by a write after Close.
	ErrClosed = errors.New("session: closed")
)

// Options configure [Create], [Open] and the functions that make new
// session files. A nil *Options means the defaults.
type Options struct {
	// ID is the ID of a new session ([Create], [ForkFrom], [Session.Fork],
	// [Open] of a missing file); "" makes a UUIDv7. pi's rules apply: letters, digits, '-', '_' and
	// '.', starting and ending with a letter or digit.
	ID string
	// ParentSession is the parent file a new session records; "" for none.
	ParentSession string
	// Registry decodes app-defined message roles; nil knows none, and a
	// role nobody registered is kept as an [*agentcore.CustomMessage].
	// Its decoders are called from several goroutines at once (see the
	// package doc's Safety section).
	Registry *agentcore.MessageRegistry
	// ReadOnly opens a session without its lock, migrating an old file in
	// memory only; appends fail with [ErrReadOnly].
	ReadOnly bool
	// Sync makes every append wait for the disk (fsync).
	Sync bool
	// MaxLineBytes is the longest line Open reads, newline included; a
	// longer one is read through without being held in memory and
	// reported to OnBadLine as a [*LineError] wrapping [ErrLineTooLong],
	// then left out as a corrupt line is (pi would keep it: a departure).
	// Zero means [DefaultMaxLineBytes].
	MaxLineBytes int
	// OnBadLine is called, on the opening goroutine, for each line of the
	// file that is not an entry (a torn last line has Torn set); an error
	// it returns fails the open. Nil skips such lines, as pi does.
	OnBadLine func(*LineError) error
	// Now is the clock of the entries' timestamps (and of a new session's
	// header and file name); nil is time.Now. It is called once for each
	// new session and once for each entry appended, on the appending
	// goroutine.
	Now func() time.Time
	// NewEntryID draws the ID of each new entry: those appended, those a
	// version 1 migration gives, and the labels [Session.Fork] writes
	// again. It is called on the goroutine making the entry, under the
	// session's lock; "" or an ID the session already holds is drawn
	// again, up to 100 times, then a random UUID is taken. Nil draws 8 random hex
	// digits, as pi does. With Now, it makes the file of a script of calls
	// the one pi writes for the same calls, byte for byte.
	NewEntryID func() string
}

func (o *Options) orDefault() Options {
	var out Options
	if o != nil {
		out = *o
	}
	if out.Now == nil {
		out.Now = time.Now
	}
	return out
}

// Session is a session file open for reading and appending: pi's
// SessionManager. Its methods are safe for concurrent use; appends are
// serialized, each written as one line with one write. Close it to give
// up its lock.
type Session struct {
	mu      sync.Mutex
	opts    Options
	path    string
	header  Header
	t       *tree
	flushed bool // the file holds the header and every entry so far
	lock    *fileLock
	closed  bool
	// file and size are the file as the session last wrote or read it:
	// an append first checks that the path still names that file, of
	// that size, so that it never lands after lines it does not know.
	file os.FileInfo
	size int64
}

// Create starts a new session for the working directory cwd, in dir: the
// file dir/<time>_<id>.jsonl, pi's naming. As in pi, the file is written
// once the session holds a user or assistant message; until then its
// entries are kept in memory, and the lock is taken when the file is
// written, so a session that never writes leaves nothing on disk.
func Create(dir, cwd string, opts *Options) (*Session, error) {
	o := opts.orDefault()
	id := o.ID
	now := o.Now()
	if id == "" {
		id = newSessionID(now)
	} else if err := checkSessionID(id); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	ts := isoTime(now)
	name := strings.NewReplacer(":", "-", ".", "-").Replace(ts) + "_" + id + ".jsonl"
	s := &Session{opts: o, path: filepath.Join(dir, name), t: newTree(nil),
		header: Header{Version: CurrentVersion, ID: id, Timestamp: ts, Cwd: cwd, ParentSession: o.ParentSession}}
	return s, nil
}

// Open opens the session file at path. The file is read line by line, a
// line at a time in memory; of a version 3 file only the tree is kept and
// large entries are read back when needed (see the package doc's Safety
// section). An older version is migrated as pi migrates it and, unless
// ReadOnly, rewritten (through a temporary file renamed over it) and
// locked; a torn last line is skipped and, unless ReadOnly, ended with a
// newline so that appends start on a line of their own. The leaf is the
// last entry of the file. A file whose first entry is not a header is
// refused with [ErrNotSession]; an empty one gets a new header, pi's
// repair. A path where no file is opens, as in pi, an empty session of
// the process's working directory (ID and time from opts), whose file is
// written at the first append that gives it a user or assistant message;
// unless ReadOnly, its directory is made if missing, as pi makes it.
func Open(path string, opts *Options) (*Session, error) {
	o := opts.orDefault()
	s := &Session{opts: o, path: path}
	if !o.ReadOnly {
		// As pi, a missing directory is made: the lock lives there, and
		// the file will.
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("session: %w", err)
		}
		l, err := lockFile(path)
		if err != nil {
			return nil, err
		}
		s.lock = l
	}
	if err := s.load(); err != nil {
		if s.t != nil {
			_ = s.t.src.close()
		}
		if s.lock != nil {
			_ = s.lock.release()
		}
		return nil, err
	}
	return s, nil
}

// newID draws an entry ID not in taken.
func (o *Options) newID(taken map[string]bool) string {
	return newEntryIDWith(o.NewEntryID, taken)
}

// newHeader starts a new session in memory: the header, no entries.
func (s *Session) newHeader() {
	cwd, _ := os.Getwd()
	now := s.opts.Now()
	id := s.opts.ID
	if id == "" {
		id = newSessionID(now)
	}
	s.header = Header{Version: CurrentVersion, ID: id, Timestamp: isoTime(now), Cwd: cwd}
	s.t = newTree(nil)
}

func (s *Session) load() error {
	f, err := os.Open(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		// As pi: a new session for this path, written at the first append
		// that gives it a conversation.
		if s.opts.ID != "" {
			if err := checkSessionID(s.opts.ID); err != nil {
				return err
			}
		}
		s.newHeader()
		return nil
	}
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	src := &source{path: s.path, reg: s.opts.Registry, f: f}
	c, err := readContents(f, src, s.opts.maxLine(), s.opts.OnBadLine)
	read, serr := f.Stat() // the file read, before it may be closed
	if err != nil || c.t == nil || c.t.src == nil {
		_ = f.Close()
		src.f = nil
	}
	if errors.Is(err, io.EOF) { // an empty file
		s.newHeader()
		if s.opts.ReadOnly {
			return nil
		}
		return s.rewrite()
	}
	if err != nil {
		return fmt.Errorf("session: %s: %w", s.path, err)
	}
	if c.values != nil {
		c.migrate(s.opts.Registry, s.opts.newID)
	}
	s.header, s.t, s.flushed = c.header, c.t, true
	if s.opts.ReadOnly {
		return nil
	}
	if c.migrated && c.tooLong > 0 {
		// The rewrite would lose the lines left out.
		return fmt.Errorf("session: %s: an old version to migrate, with %d lines over the limit: %w", s.path, c.tooLong, ErrLineTooLong)
	}
	if c.migrated {
		return s.replace(joinLines(c.lines))
	}
	if serr != nil {
		return fmt.Errorf("session: %w", serr)
	}
	s.file, s.size = read, c.size
	if c.tornTail {
		return s.write([]byte("\n"))
	}
	return nil
}

// remember records the file at the session's path as the one it writes.
func (s *Session) remember() error {
	info, err := os.Stat(s.path)
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	s.file, s.size = info, info.Size()
	return nil
}

// rewrite replaces the file with the header and every entry, through a
// temporary file renamed over it.
func (s *Session) rewrite() error {
	data, err := s.encodeAll()
	if err != nil {
		return err
	}
	return s.replace(data)
}

// replace replaces the file with data, through a temporary file renamed
// over it.
func (s *Session) replace(data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".session-*.tmp")
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	err = errors.Join(err, tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), s.path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("session: rewrite %s: %w", s.path, err)
	}
	s.flushed = true
	return s.remember()
}

// encodeAll is the file's text: the header and entries, a line each, as
// pi writes them: an entry read from a file as JSON.stringify writes back
// its line, one made here encoded.
func (s *Session) encodeAll() ([]byte, error) {
	var buf bytes.Buffer
	h, err := marshalLine(s.header)
	if err != nil {
		return nil, err
	}
	buf.Write(h)
	buf.WriteByte('\n')
	lines, err := s.t.lines(s.t.slots)
	if err != nil {
		return nil, err
	}
	for _, line := range lines {
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

// joinLines is lines, each ended with a newline.
func joinLines(lines [][]byte) []byte {
	var buf bytes.Buffer
	for _, l := range lines {
		buf.Write(l)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// write appends data to the file with one write, after checking that the
// file is the one the session knows: a file another program replaced,
// cut or appended to is refused with [ErrChanged], and nothing is
// written.
func (s *Session) write(data []byte) error {
	if s.file != nil {
		info, err := os.Stat(s.path)
		switch {
		case err != nil:
			return fmt.Errorf("%w: %w", ErrChanged, err)
		case !os.SameFile(info, s.file):
			return fmt.Errorf("%w: %s was replaced", ErrChanged, s.path)
		case info.Size() != s.size:
			return fmt.Errorf("%w: %s is %d bytes, the session wrote %d", ErrChanged, s.path, info.Size(), s.size)
		}
	}
	return s.writeFlags(data, os.O_WRONLY|os.O_APPEND)
}

// writeFlags opens the file with flag and writes data with one write. A
// write that fails, part way or at its sync, is undone (the file cut back
// to the size the session knows, or removed when this call created it),
// so that no fragment is left for the next line to land after as one
// corrupt line; should the cut fail, the next append finds the file
// changed ([ErrChanged]).
func (s *Session) writeFlags(data []byte, flag int) error {
	f, err := os.OpenFile(s.path, flag, 0o644)
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	_, err = f.Write(data)
	if err == nil && s.opts.Sync {
		err = f.Sync()
	}
	if err == nil && s.file == nil {
		s.file, err = f.Stat()
	}
	if err != nil {
		if flag&os.O_EXCL != 0 {
			_ = os.Remove(s.path)
		} else {
			_ = f.Truncate(s.size)
		}
	} else {
		s.size += int64(len(data))
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("session: write: %w", err)
	}
	return nil
}

// Close gives up the session's lock. Entries appended before are on disk;
// later writes fail with [ErrClosed].
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	var err error
	if s.t.src != nil {
		err = s.t.src.close()
	}
	if s.lock != nil {
		err = errors.Join(err, s.lock.release())
	}
	return err
}

// hasConversation reports whether the session holds a user or assistant
// message: pi writes the file from then on.
func (s *Session) hasConversation() bool {
	for _, sl := range s.t.slots {
		if sl.typ == "message" && (sl.role == "user" || sl.role == "assistant") {
			return true
		}
	}
	return false
}

// persist writes the entry just added.
func (s *Session) persist(e Entry) error {
	if !s.flushed {
		if !s.hasConversation() {
			return nil
		}
		data, err := s.encodeAll()
		if err != nil {
			return err
		}
		if err := s.create(data); err != nil {
			return err
		}
	} else {
		line, err := s.t.line(s.t.slots[len(s.t.slots)-1])
		if err != nil {
			return fmt.Errorf("session: entry: %w", err)
		}
		if err := s.write(append(line, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// takeLock takes the lock of the session's file, unless held.
func (s *Session) takeLock() error {
	if s.lock != nil {
		return nil
	}
	l, err := lockFile(s.path)
	if err != nil {
		return err
	}
	s.lock = l
	return nil
}

// create writes a new session's file, taking its lock first.
func (s *Session) create(data []byte) error {
	if err := s.takeLock(); err != nil {
		return err
	}
	s.file, s.size = nil, 0
	if err := s.writeFlags(data, os.O_WRONLY|os.O_CREATE|os.O_EXCL); err != nil {
		s.file, s.size = nil, 0
		_ = s.lock.release()
		s.lock = nil
		return err
	}
	s.flushed = true
	return nil
}

// Append adds e as a child of the leaf, writes it, makes it the leaf and
// returns its ID. Append sets e's EntryBase (ID, parent, time) and owns e
// from then on. As pi's SessionManager, it
//
//   - refuses a label or context edit whose target it does not hold, a
//     context edit of an entry off the current branch or of one that puts
//     no user, assistant, tool-result or custom message in the context;
//   - writes a context edit's string content as a text block for an
//     assistant or tool-result target;
//   - gives a compaction without FirstKeptEntryID its own ID (nothing
//     kept) and, when SystemMessage is nil, the system message replayed
//     from the current context;
//   - writes a session name on one line, trimmed.
//
// A write that fails leaves the session as it was.
func (s *Session) Append(e Entry) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.append(e, s.t.leaf, s.t.leafNoID)
}

// AppendMessage appends m in a [MessageEntry]; see [Session.Append].
func (s *Session) AppendMessage(m agentcore.Message) (string, error) {
	return s.Append(&MessageEntry{Message: m})
}

func (s *Session) append(e Entry, parent string, noParent bool) (string, error) {
	if s.closed {
		return "", ErrClosed
	}
	if s.opts.ReadOnly {
		return "", ErrReadOnly
	}
	if e == nil {
		return "", fmt.Errorf("%w: nil entry", ErrInvalid)
	}
	b := e.Base()
	b.ID = newEntryIDWith(s.opts.NewEntryID, s.t.byID)
	b.ParentID = parent
	now := s.opts.Now()
	b.Timestamp = isoTime(now)
	if err := s.check(e, now); err != nil {
		return "", err
	}
	previous, previousNoID := s.t.leaf, s.t.leafNoID
	s.t.add(e)
	if noParent {
		// pi's leaf is undefined, so is the parentId it writes.
		if err := s.t.dropParent(s.t.slots[len(s.t.slots)-1]); err != nil {
			s.t.removeLast(previous)
			s.t.leafNoID = previousNoID
			return "", err
		}
	}
	if err := s.persist(e); err != nil {
		s.t.removeLast(previous)
		s.t.leafNoID = previousNoID
		return "", err
	}
	return b.ID, nil
}

// check validates and completes e before it is appended.
func (s *Session) check(e Entry, now time.Time) error {
	switch e := e.(type) {
	case *MessageEntry:
		if e.Message == nil {
			return fmt.Errorf("%w: message entry without a message", ErrInvalid)
		}
		switch e.Message.(type) {
		case *compaction.Summary, *BranchSummaryMessage:
			return fmt.Errorf("%w: a %s message is written as its own entry", ErrInvalid, e.Message.Role())
		}
	case *Label:
		if !s.t.has(e.TargetID) {
			return fmt.Errorf("%w: label target %s", ErrNotFound, limit.Quote(e.TargetID))
		}
	case *SessionInfo:
		e.Name = strings.TrimSpace(newlines.ReplaceAllString(e.Name, " "))
	case *Compaction:
		if e.FirstKeptEntryID == "" {
			e.FirstKeptEntryID = e.ID
		}
		if e.SystemMessage == nil {
			if sys := agentcore.CurrentSystemMessage(s.t.context(s.t.leaf).Messages); sys != nil {
				sys.Timestamp = now.UnixMilli()
				e.SystemMessage = sys
			}
		}
	case *ContextEdit:
		return s.checkEdit(e)
	}
	return nil
}

func (s *Session) checkEdit(e *ContextEdit) error {
	target := s.t.byID[e.TargetID]
	if !s.t.has(e.TargetID) {
		return fmt.Errorf("%w: context edit target %s", ErrNotFound, limit.Quote(e.TargetID))
	}
	if !slices.Contains(s.t.pathSlots(s.t.leaf), target) {
		return fmt.Errorf("%w: context edit target %s is not on the current branch", ErrInvalid, limit.Quote(e.TargetID))
	}
	switch target.role {
	case "user", "custom":
	case "assistant", "toolResult":
		if e.Replacement != nil && e.Replacement.Content.Plain {
			e.Replacement = &Replacement{Content: agentcore.Blocks(agentcore.TextBlock{Text: e.Replacement.Content.Text()})}
		}
	default:
		return fmt.Errorf("%w: context edit target %s puts no editable message in the context", ErrInvalid, limit.Quote(e.TargetID))
	}
	return nil
}

// maxLine is MaxLineBytes or its default.
func (o *Options) maxLine() int {
	if o.MaxLineBytes > 0 {
		return o.MaxLineBytes
	}
	return DefaultMaxLineBytes
}
