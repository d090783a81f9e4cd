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

	"github.com/pi-go/agentcore/internal/jsonv"
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
				Type          string          `json:"type"`
				ID            string          `json:"id"`
				Timestamp     string          `json:"timestamp"`
				Cwd           json.RawMessage `json:"cwd"`
				ParentSession string          `json:"parentSession"`
				Name          string          `json:"name"`
				Message       *struct {
					Role      string          `json:"role"`
					Content   json.RawMessage `json:"content"`
					Timestamp jsInt           `json:"timestamp"`
				} `json:"message"`
			}
			if json.Unmarshal(line, &w) == nil {
				switch {
				case !header:
					if w.Type != "session" {
						return Info{}, false
					}
					header = true
					info.ID, info.ParentSession = w.ID, w.ParentSession
					if cwd := stringOf(w.Cwd); cwd != nil {
						info.Cwd = *cwd
					}
					info.Created = time.UnixMilli(millis(w.Timestamp))
				case w.Type == "session_info":
					info.Name = strings.TrimSpace(w.Name)
				case w.Type == "message" && w.Message != nil:
					info.MessageCount++
					if w.Message.Role == "user" || w.Message.Role == "assistant" {
						ts := int64(w.Message.Timestamp)
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
// written again at its end, in the order pi's label map holds them. Each
// entry is written as pi writes it, from its line, its parentId (and a
// compaction's firstKeptEntryId) changed. The new session records s's
// file as its parent; s is unchanged. Options apply to the new session.
func (s *Session) Fork(leafID string, opts *Options) (*Session, error) {
	s.mu.Lock()
	if leafID == "" {
		leafID = s.t.leaf
	}
	path := s.t.pathSlots(leafID)
	lines, err := s.t.lines(path)
	labels := s.t.orderedLabels()
	cwd := s.header.Cwd
	s.mu.Unlock()
	if len(path) == 0 {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, leafID)
	}
	if err != nil {
		return nil, err
	}
	o := opts.orDefault()
	if o.ParentSession == "" {
		o.ParentSession = s.path
	}
	var kept [][]byte
	ids := map[string]bool{}
	replaced := map[string]string{}
	var pending []string
	parent, parentSet := jsonv.NullValue(), true // pi's pathParentId: null, an ID, or undefined
	last := ""
	for i, sl := range path {
		if sl.typ == "label" {
			pending = append(pending, sl.base.ID)
			continue
		}
		for _, id := range pending {
			replaced[id] = sl.base.ID
		}
		pending = pending[:0]
		v, err := jsonv.Parse(lines[i])
		if err != nil {
			return nil, err
		}
		if v.Kind() == jsonv.Object {
			if parentSet {
				v = setMember(v, "parentId", parent)
			} else {
				v = deleteMember(v, "parentId")
			}
			if sl.typ == "compaction" {
				v = keepFirst(v, sl, replaced)
			}
		}
		kept = append(kept, v.AppendJSON(nil))
		ids[sl.base.ID] = true
		parent, parentSet, last = jsonv.StringValue(sl.base.ID), !sl.noID, sl.base.ID
	}
	for _, l := range labels {
		if !ids[l.target] {
			continue
		}
		// The label and its time as pi holds them, from the label entry's
		// line: a string Go would decode lossily (a lone surrogate) is kept.
		raw, err := s.labelLine(l.slot)
		if err != nil {
			return nil, err
		}
		id := newEntryIDWith(o.NewEntryID, ids)
		members := []jsonv.Member{
			{Key: "type", Value: jsonv.StringValue("label")},
			{Key: "id", Value: jsonv.StringValue(id)},
			{Key: "parentId", Value: parentValue(last)},
		}
		for _, key := range []string{"timestamp", "targetId", "label"} {
			if v, ok := raw.Get(key); ok { // an absent one is undefined: left out
				members = append(members, jsonv.Member{Key: key, Value: v})
			}
		}
		line := jsonv.ObjectValue(members).AppendJSON(nil)
		ids[id] = true
		last = id
		kept = append(kept, line)
	}
	return createWith(filepath.Dir(s.path), cwd, o, kept, false)
}

// labelLine returns the line of a label entry, parsed.
func (s *Session) labelLine(sl *slot) (jsonv.Value, error) {
	s.mu.Lock()
	line, err := s.t.line(sl)
	s.mu.Unlock()
	if err != nil {
		return jsonv.Value{}, err
	}
	return jsonv.Parse(line)
}

// keepFirst sets a compaction's firstKeptEntryId as pi's
// createBranchedSession does: a reference to a label left out becomes the
// entry that followed it.
func keepFirst(v jsonv.Value, sl *slot, replaced map[string]string) jsonv.Value {
	fk, ok := v.Get("firstKeptEntryId")
	id, hasID := v.Get("id")
	switch {
	case ok && hasID && jsonv.StrictEqual(fk, id):
		return v
	case ok && fk.Kind() == jsonv.String:
		if r, found := replaced[fk.Str()]; found {
			return setMember(v, "firstKeptEntryId", jsonv.StringValue(r))
		}
		return v
	case ok:
		return v
	}
	return v // undefined stays undefined: JSON.stringify leaves it out
}

// ForkFrom copies every entry of the session file source into a new
// session of the working directory cwd in dir, recording source as its
// parent: pi's forkFrom. The entries are written as pi writes them, from
// their lines, and the file is written at once. One departure: a source
// of version 1 or 2 is migrated first (pi copies its entries unmigrated
// under a version 3 header).
func ForkFrom(source, dir, cwd string, opts *Options) (*Session, error) {
	o := opts.orDefault()
	if _, err := os.Stat(source); err != nil {
		return nil, fmt.Errorf("session: fork: %w", err)
	}
	src, err := Open(source, &Options{ReadOnly: true, Registry: o.Registry, NewEntryID: o.NewEntryID})
	if err != nil {
		return nil, err
	}
	lines, err := src.t.lines(src.t.slots)
	_ = src.Close()
	if err != nil {
		return nil, err
	}
	if o.ParentSession == "" {
		o.ParentSession = source
	}
	return createWith(dir, cwd, o, lines, true)
}

// createWith creates a session holding the entries of lines (as pi
// writes them) and writes it at once when always is set or it holds a
// conversation.
func createWith(dir, cwd string, o Options, lines [][]byte, always bool) (*Session, error) {
	s, err := Create(dir, cwd, &o)
	if err != nil {
		return nil, err
	}
	for _, line := range lines {
		e, b, err := decodeEntry(line, o.Registry)
		if err != nil {
			continue // not reached: every line is one pi keeps
		}
		sl := &slot{base: *e.Base(), typ: e.Type(), entry: e, raw: line, noID: b.noID, noParent: b.noParent}
		sl.role, sl.model = summarize(e)
		s.t.addSlot(sl)
	}
	if (always || s.hasConversation()) && !o.ReadOnly {
		if err := s.rewrite(); err != nil {
			_ = s.Close()
			return nil, err
		}
	}
	return s, nil
}
