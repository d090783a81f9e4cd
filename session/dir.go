package session

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/pi-go/agentcore/internal/limit"
)

// AgentDir returns pi's agent directory: $PI_CODING_AGENT_DIR, else
// ~/.pi/agent.
func AgentDir() (string, error) {
	if d := os.Getenv("PI_CODING_AGENT_DIR"); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("session: %w", err)
	}
	return filepath.Join(home, ".pi", "agent"), nil
}

var pathSeparators = regexp.MustCompile(`[/\\:]`)

// Dir returns the directory pi keeps the sessions of the working
// directory cwd in, under agentDir: sessions/--<cwd>--, the cwd without
// its leading separator and with '/', '\' and ':' made '-'.
func Dir(agentDir, cwd string) string {
	abs, err := filepath.Abs(cwd)
	if err == nil {
		cwd = abs
	}
	safe := cwd
	if strings.HasPrefix(safe, "/") || strings.HasPrefix(safe, `\`) {
		safe = safe[1:]
	}
	safe = pathSeparators.ReplaceAllString(safe, "-")
	return filepath.Join(agentDir, "sessions", "--"+safe+"--")
}

// Info describes a session file, as pi's session list does.
type Info struct {
	Path          string
	ID            string
	Cwd           string
	Name          string
	ParentSession string
	Created       time.Time
	// Modified is the time of the last user or assistant message, else
	// the creation time.
	Modified time.Time
	// MessageCount counts the message entries.
	MessageCount int
	// FirstMessage is the text of the first user message;
	// "(no messages)" when none.
	FirstMessage string
}

// List describes the sessions in dir, most recently modified first. A
// file that is not a session is left out. Each file is read a line at a
// time.
func List(dir string) ([]Info, error) {
	names, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("session: %w", err)
	}
	var out []Info
	for _, n := range names {
		if n.IsDir() || !strings.HasSuffix(n.Name(), ".jsonl") {
			continue
		}
		if info, ok := describe(filepath.Join(dir, n.Name())); ok {
			out = append(out, info)
		}
	}
	slices.SortStableFunc(out, func(a, b Info) int { return b.Modified.Compare(a.Modified) })
	return out, nil
}

// describe reads one file for List.
func describe(path string) (Info, bool) {
	f, err := os.Open(path)
	if err != nil {
		return Info{}, false
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	info := Info{Path: path}
	header := false
	var last int64
	for {
		line, err := br.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var w struct {
				Type          string `json:"type"`
				ID            string `json:"id"`
				Timestamp     string `json:"timestamp"`
				Cwd           string `json:"cwd"`
				ParentSession string `json:"parentSession"`
				Name          string `json:"name"`
				Message       *struct {
					Role      string          `json:"role"`
					Content   json.RawMessage `json:"content"`
					Timestamp int64           `json:"timestamp"`
				} `json:"message"`
			}
			if json.Unmarshal(line, &w) == nil {
				switch {
				case !header:
					if w.Type != "session" {
						return Info{}, false
					}
					header = true
					info.ID, info.Cwd, info.ParentSession = w.ID, w.Cwd, w.ParentSession
					info.Created = time.UnixMilli(millis(w.Timestamp))
				case w.Type == "session_info":
					info.Name = strings.TrimSpace(w.Name)
				case w.Type == "message" && w.Message != nil:
					info.MessageCount++
					if w.Message.Role == "user" || w.Message.Role == "assistant" {
						ts := w.Message.Timestamp
						if ts == 0 {
							ts = millis(w.Timestamp)
						}
						last = max(last, ts)
						if info.FirstMessage == "" && w.Message.Role == "user" {
							if c, err := decodeContent(w.Message.Content); err == nil {
								info.FirstMessage = c.Text()
							}
						}
					}
				}
			}
		}
		if err != nil {
			break
		}
	}
	if !header {
		return Info{}, false
	}
	info.Modified = info.Created
	if last > 0 {
		info.Modified = time.UnixMilli(last)
	}
	if info.FirstMessage == "" {
		info.FirstMessage = "(no messages)"
	}
	return info, true
}

// Delete removes the session file at path, taking its lock first: a
// session open for writing is not deleted ([ErrLocked]).
func Delete(path string) error {
	l, err := lockFile(path, 0, time.Now)
	if err != nil {
		return err
	}
	err = os.Remove(path)
	return errors.Join(err, l.release())
}

// Fork writes a new session in the same directory holding the path from
// the root to leafID ("" for the current leaf) and the labels of its
// entries, pi's createBranchedSession: label entries are left out of the
// path (the entries after one re-parented onto what came before) and
// written again at its end. The new session records s's file as its
// parent; s is unchanged. Options apply to the new session.
func (s *Session) Fork(leafID string, opts *Options) (*Session, error) {
	s.mu.Lock()
	if leafID == "" {
		leafID = s.t.leaf
	}
	path := s.t.path(leafID)
	labels := s.t.labels
	cwd := s.header.Cwd
	s.mu.Unlock()
	if len(path) == 0 {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, limit.Quote(leafID))
	}
	o := opts.orDefault()
	if o.ParentSession == "" {
		o.ParentSession = s.path
	}
	var kept []Entry
	replaced := map[string]string{}
	var pending []string
	parent := ""
	for _, e := range path {
		if _, ok := e.(*Label); ok {
			pending = append(pending, e.Base().ID)
			continue
		}
		for _, id := range pending {
			replaced[id] = e.Base().ID
		}
		pending = pending[:0]
		c := shallowCopy(e)
		c.Base().ParentID = parent
		if comp, ok := c.(*Compaction); ok && comp.FirstKeptEntryID != comp.ID {
			if r, ok := replaced[comp.FirstKeptEntryID]; ok {
				comp.FirstKeptEntryID = r
			}
		}
		kept = append(kept, c)
		parent = e.Base().ID
	}
	ids := map[string]bool{}
	for _, e := range kept {
		ids[e.Base().ID] = true
	}
	for _, e := range kept {
		l, ok := labels[e.Base().ID]
		if !ok {
			continue
		}
		label := &Label{EntryBase: EntryBase{ID: newEntryID(ids), ParentID: parent, Timestamp: l.timestamp},
			TargetID: e.Base().ID, Label: l.label}
		ids[label.ID] = true
		parent = label.ID
		kept = append(kept, label)
	}
	return createWith(filepath.Dir(s.path), cwd, o, kept)
}

// ForkFrom copies every entry of the session file source into a new
// session of the working directory cwd in dir, recording source as its
// parent: pi's forkFrom.
func ForkFrom(source, dir, cwd string, opts *Options) (*Session, error) {
	src, err := Open(source, &Options{ReadOnly: true, Registry: opts.orDefault().Registry})
	if err != nil {
		return nil, err
	}
	o := opts.orDefault()
	if o.ParentSession == "" {
		o.ParentSession = source
	}
	return createWith(dir, cwd, o, src.Entries())
}

// createWith creates a session holding entries and writes it at once
// when it holds a conversation.
func createWith(dir, cwd string, o Options, entries []Entry) (*Session, error) {
	s, err := Create(dir, cwd, &o)
	if err != nil {
		return nil, err
	}
	s.t = newTree(entries)
	if s.hasConversation() && !o.ReadOnly {
		if err := s.rewrite(); err != nil {
			_ = s.Close()
			return nil, err
		}
	}
	return s, nil
}

// shallowCopy returns a copy of e whose EntryBase can be changed.
func shallowCopy(e Entry) Entry {
	switch e := e.(type) {
	case *MessageEntry:
		c := *e
		return &c
	case *ModelChange:
		c := *e
		return &c
	case *ThinkingLevelChange:
		c := *e
		return &c
	case *UsageEntry:
		c := *e
		return &c
	case *Compaction:
		c := *e
		return &c
	case *ContextEdit:
		c := *e
		return &c
	case *BranchSummary:
		c := *e
		return &c
	case *CustomEntry:
		c := *e
		return &c
	case *CustomMessageEntry:
		c := *e
		return &c
	case *Label:
		c := *e
		return &c
	case *SessionInfo:
		c := *e
		return &c
	case *UnknownEntry:
		c := *e
		return &c
	}
	return e
}
