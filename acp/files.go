package acp

// This file holds what the server keeps in pi's session files: the
// permissions remembered for a session, session/load and session/list.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pi-go/agentcore/session"
)

// permissionsEntry is the custom entry type of the session file that
// keeps the tools allowed or rejected for the session.
const permissionsEntry = "acp.permissions"

type rememberedPermissions struct {
	Allow  []string `json:"allow"`
	Reject []string `json:"reject"`
}

// restorePermissions reads the tools remembered in the session file: the
// last permissions entry on the current branch.
func (s *sess) restorePermissions() {
	path := s.file.Path(s.file.Leaf())
	for i := len(path) - 1; i >= 0; i-- {
		e, ok := path[i].(*session.CustomEntry)
		if !ok || e.CustomType != permissionsEntry {
			continue
		}
		var r rememberedPermissions
		if json.Unmarshal(e.Data, &r) == nil {
			for _, t := range r.Allow {
				s.always[t] = true
			}
			for _, t := range r.Reject {
				s.always[t] = false
			}
		}
		return
	}
}

// remember keeps the user's "always" answer for tool, in the session and
// its file.
func (s *sess) remember(tool string, allow bool) {
	s.mu.Lock()
	s.always[tool] = allow
	r := rememberedPermissions{Allow: []string{}, Reject: []string{}}
	for t, a := range s.always {
		if a {
			r.Allow = append(r.Allow, t)
		} else {
			r.Reject = append(r.Reject, t)
		}
	}
	s.mu.Unlock()
	slices.Sort(r.Allow)
	slices.Sort(r.Reject)
	if s.file == nil {
		return
	}
	data, err := json.Marshal(r)
	if err == nil {
		// A failed append loses only the memory across restarts; the
		// session's own append errors fail its next request.
		_, _ = s.file.Append(&session.CustomEntry{CustomType: permissionsEntry, Data: data})
	}
}

// findSessionFile finds the file of session id among the sessions of
// cwd.
func (s *Server) findSessionFile(id, cwd string) (string, error) {
	dir, err := s.sessionDir(cwd)
	if err != nil {
		return "", err
	}
	infos, err := session.List(dir)
	if err != nil {
		return "", rpcError(CodeInternalError, "%v", err)
	}
	for _, in := range infos {
		if in.ID == id {
			return in.Path, nil
		}
	}
	return "", errNotFound(id)
}

func (c *connection) loadSession(ctx context.Context, params json.RawMessage) (reply, error) {
	if c.srv.opts.Ephemeral {
		return reply{}, rpcError(CodeMethodNotFound, "method not found: session/load (sessions are not kept)")
	}
	var p loadSessionRequest
	if err := decodeParams(params, &p); err != nil {
		return reply{}, err
	}
	if err := checkCwd(p.Cwd); err != nil {
		return reply{}, err
	}
	if p.SessionID == "" {
		return reply{}, rpcError(CodeInvalidParams, "invalid params: sessionId is required")
	}
	if c.session(p.SessionID) != nil {
		return reply{}, rpcError(CodeInvalidRequest, "session %s is already open", p.SessionID)
	}
	path, err := c.srv.findSessionFile(p.SessionID, p.Cwd)
	if err != nil {
		return reply{}, err
	}
	file, err := session.Open(path, nil)
	if err != nil {
		if errors.Is(err, session.ErrLocked) {
			return reply{}, rpcError(CodeInvalidRequest, "session %s is open elsewhere: %v", p.SessionID, err)
		}
		return reply{}, rpcError(CodeInternalError, "opening the session file: %v", err)
	}
	s, err := c.open(ctx, p.SessionID, p.Cwd, p.MCPServers, file)
	if err != nil {
		return reply{}, err
	}
	// The history goes to the client before the response.
	s.replay(s.agent.Messages())
	return reply{result: loadSessionResponse{Modes: s.modeState()}, after: s.announce}, nil
}

// listPage is how many sessions one session/list answer holds.
const listPage = 100

func (c *connection) listSessions(_ context.Context, params json.RawMessage) (reply, error) {
	if c.srv.opts.Ephemeral {
		return reply{}, rpcError(CodeMethodNotFound, "method not found: session/list (sessions are not kept)")
	}
	var p listSessionsRequest
	if len(params) > 0 && string(params) != "null" {
		if err := decodeParams(params, &p); err != nil {
			return reply{}, err
		}
	}
	var dirs []string
	if p.Cwd != nil && *p.Cwd != "" {
		if err := checkCwd(*p.Cwd); err != nil {
			return reply{}, err
		}
		d, err := c.srv.sessionDir(*p.Cwd)
		if err != nil {
			return reply{}, err
		}
		dirs = []string{d}
	} else {
		root, err := c.srv.sessionDir("/")
		if err != nil {
			return reply{}, err
		}
		root = filepath.Dir(root)
		entries, _ := os.ReadDir(root)
		for _, e := range entries {
			if e.IsDir() {
				dirs = append(dirs, filepath.Join(root, e.Name()))
			}
		}
	}
	var all []session.Info
	for _, d := range dirs {
		infos, err := session.List(d)
		if err != nil {
			return reply{}, rpcError(CodeInternalError, "%v", err)
		}
		all = append(all, infos...)
	}
	slices.SortStableFunc(all, func(a, b session.Info) int { return b.Modified.Compare(a.Modified) })
	start := 0
	if p.Cursor != nil && *p.Cursor != "" {
		if _, err := fmt.Sscanf(*p.Cursor, "%d", &start); err != nil || start < 0 || start > len(all) {
			return reply{}, rpcError(CodeInvalidParams, "invalid params: bad cursor %q", *p.Cursor)
		}
	}
	res := listSessionsResponse{Sessions: []sessionInfo{}}
	end := min(start+listPage, len(all))
	for _, in := range all[start:end] {
		title := in.Name
		if title == "" && in.FirstMessage != "(no messages)" {
			title = firstLine(in.FirstMessage, 80)
		}
		res.Sessions = append(res.Sessions, sessionInfo{SessionID: in.ID, Cwd: in.Cwd, Title: title,
			UpdatedAt: in.Modified.UTC().Format("2006-01-02T15:04:05.000Z")})
	}
	if end < len(all) {
		res.NextCursor = fmt.Sprint(end)
	}
	return reply{result: res}, nil
}

// firstLine is the first line of s, cut to n runes.
func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
