package codingtools

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/pi-go/agentcore"
)

// findArgs are the find tool's arguments.
type findArgs struct {
	Pattern string   `json:"pattern"`
	Path    string   `json:"path,omitempty"`
	Limit   *float64 `json:"limit,omitempty"`
}

// FindDetails are the details of a find result; nil when nothing was cut.
type FindDetails struct {
	ResultLimitReached int         `json:"resultLimitReached,omitempty"`
	Truncation         *Truncation `json:"truncation,omitempty"`
}

// findTool builds the find tool.
func (s *toolset) findTool() agentcore.Tool {
	return s.declare("find", func(ctx context.Context, _ string, raw json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		var args findArgs
		if err := json.Unmarshal(raw, &args); err != nil {
			return agentcore.ToolResult{}, fmt.Errorf("decoding arguments of find: %w", err)
		}
		if ctx.Err() != nil {
			return agentcore.ToolResult{}, errAborted
		}
		res, err := s.find(ctx, args)
		if ctx.Err() != nil {
			return agentcore.ToolResult{}, errAborted
		}
		return res, err
	})
}

// findMatcher matches the entries of a search as fd does with pi's
// arguments: a pattern without "/" against the name, a relative one
// against the path below the search directory, an absolute one against
// the absolute path; smart case (an all-lowercase pattern ignores case).
type findMatcher struct {
	re       *regexp.Regexp
	fullPath bool
	absolute bool
}

func newFindMatcher(pattern string) (*findMatcher, error) {
	for strings.HasPrefix(pattern, "./") {
		pattern = pattern[2:]
	}
	m := &findMatcher{fullPath: strings.Contains(pattern, "/"), absolute: filepath.IsAbs(pattern)}
	re, err := compileGlob(pattern, m.fullPath, pattern == strings.ToLower(pattern))
	if err != nil {
		return nil, fmt.Errorf("[fd error]: %w", err)
	}
	m.re = re
	return m, nil
}

func (m *findMatcher) match(e walkEntry) bool {
	switch {
	case !m.fullPath:
		return m.re.MatchString(path.Base(e.abs))
	case m.absolute:
		return m.re.MatchString(e.abs)
	default:
		return m.re.MatchString(e.rel)
	}
}

func (s *toolset) find(ctx context.Context, args findArgs) (agentcore.ToolResult, error) {
	searchPath, err := s.paths.resolve(ctx, cmp(args.Path, "."))
	if err != nil {
		return agentcore.ToolResult{}, err
	}
	limit := effectiveLimit(args.Limit, findDefaultLimit)
	if info, err := s.fs.Stat(ctx, searchPath); err != nil || !info.IsDir() {
		return agentcore.ToolResult{}, fmt.Errorf("[fd error]: Search path '%s' is not a directory.\n[fd error]: No valid search paths given.", searchPath)
	}
	m, err := newFindMatcher(args.Pattern)
	if err != nil {
		return agentcore.ToolResult{}, err
	}
	var results []string
	w := &walker{fs: s.fs, useIgnore: true, visit: func(e walkEntry) bool {
		if m.match(e) {
			r := e.rel
			if e.isDir {
				r += "/"
			}
			results = append(results, r)
		}
		return true
	}}
	if err := w.walk(ctx, searchPath, parentIgnores(ctx, s.ancestors, searchPath, false)); err != nil {
		return agentcore.ToolResult{}, err
	}
	if len(results) == 0 {
		return textResult("No files found matching pattern", nil), nil
	}
	slices.Sort(results)
	reached, notice := 0, ""
	if len(results) > limit {
		results, reached = results[:limit], limit
		notice = fmt.Sprintf("%d results limit reached. Use limit=%d for more, or refine pattern", limit, limit*2)
	}
	return listResult(results, notice, func(cut *Truncation) FindDetails {
		return FindDetails{ResultLimitReached: reached, Truncation: cut}
	}), nil
}
