package codingtools

import (
	"bufio"
	"context"
	"io"
	"path"
	"regexp"
	"strings"
)

// ignoreRule is one line of a .gitignore file.
type ignoreRule struct {
	re      *regexp.Regexp
	negate  bool
	dirOnly bool
	// base says the rule matches the name, not the path below the file's
	// directory: a pattern without a slash.
	base bool
}

// ignoreFile is the rules of one .gitignore, for paths below dir.
type ignoreFile struct {
	dir   string // absolute, clean
	rules []ignoreRule
}

// parseIgnore reads gitignore rules: blank lines and "#" comments are
// skipped, "!" negates, a trailing "/" matches directories only, and a
// pattern holding a slash other than a trailing one is anchored to the
// file's directory.
func parseIgnore(dir string, r io.Reader) *ignoreFile {
	f := &ignoreFile{dir: dir}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
			line = line[:len(line)-1]
		}
		rule := ignoreRule{}
		if strings.HasPrefix(line, "!") {
			rule.negate, line = true, line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			rule.dirOnly, line = true, strings.TrimSuffix(line, "/")
		}
		if line == "" {
			continue
		}
		if !strings.Contains(line, "/") {
			rule.base = true
		} else {
			line = strings.TrimPrefix(line, "/")
		}
		re, err := compileGlob(line, true, false)
		if err != nil {
			continue
		}
		rule.re = re
		f.rules = append(f.rules, rule)
	}
	return f
}

// match returns whether the file's rules ignore (1), whitelist (-1) or say
// nothing (0) about abs.
func (f *ignoreFile) match(abs string, isDir bool) int {
	if abs == f.dir || !within(f.dir, abs) {
		return 0
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(abs, f.dir), "/")
	name := path.Base(rel)
	for i := len(f.rules) - 1; i >= 0; i-- {
		r := f.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		subject := rel
		if r.base {
			subject = name
		}
		if r.re.MatchString(subject) {
			if r.negate {
				return -1
			}
			return 1
		}
	}
	return 0
}

// ignoreStack is the .gitignore files that apply in one directory, the
// deepest last.
type ignoreStack []*ignoreFile

// ignored reports whether the stack ignores abs: the deepest file with a
// rule for it decides.
func (s ignoreStack) ignored(abs string, isDir bool) bool {
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i].match(abs, isDir) {
		case 1:
			return true
		case -1:
			return false
		}
	}
	return false
}

// loadIgnore reads dir/.gitignore, nil when there is none.
func loadIgnore(ctx context.Context, fsys FS, dir string) *ignoreFile {
	f, err := fsys.Open(ctx, path.Join(dir, ".gitignore"))
	if err != nil {
		return nil
	}
	defer f.Close()
	return parseIgnore(dir, f)
}

// repoRoot returns the nearest of dir and its parents holding ".git", or
// "".
func repoRoot(ctx context.Context, fsys FS, dir string) string {
	for d := dir; ; d = path.Dir(d) {
		if _, err := fsys.Stat(ctx, path.Join(d, ".git")); err == nil {
			return d
		}
		if d == path.Dir(d) {
			return ""
		}
	}
}

// parentIgnores are the .gitignore files of dir's parents that apply to
// a search of dir, outermost first: up to the repository root, or up to
// "/" when requireGit is false and there is no repository. With
// requireGit and no repository there are none (ripgrep's default).
func parentIgnores(ctx context.Context, fsys FS, dir string, requireGit bool) ignoreStack {
	root := repoRoot(ctx, fsys, dir)
	if root == "" && requireGit {
		return nil
	}
	var stack ignoreStack
	for d := path.Dir(dir); ; d = path.Dir(d) {
		if !within(d, dir) || d == dir {
			break
		}
		if root != "" && !within(root, d) {
			break
		}
		if f := loadIgnore(ctx, fsys, d); f != nil {
			stack = append(ignoreStack{f}, stack...)
		}
		if d == path.Dir(d) {
			break
		}
	}
	return stack
}
