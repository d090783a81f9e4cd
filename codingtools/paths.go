package codingtools

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutsideDir is the error of a path that leaves the working directory
// when [Options].Confine is set.
var ErrOutsideDir = errors.New("codingtools: path is outside the working directory")

// unicodeSpaces are the spaces pi reads as a plain space in a path.
var unicodeSpaces = strings.NewReplacer(
	"\u00a0", " ", "\u2000", " ", "\u2001", " ", "\u2002", " ", "\u2003", " ", "\u2004", " ",
	"\u2005", " ", "\u2006", " ", "\u2007", " ", "\u2008", " ", "\u2009", " ", "\u200a", " ",
	"\u202f", " ", "\u205f", " ", "\u3000", " ",
)

// ResolvePath resolves a path a model sent against dir as pi does: special
// spaces become plain ones, a leading "@" is dropped, "~" and "~/..." name
// the home directory, a file:// URL names its path, and a relative path is
// joined to dir; the result is absolute and clean. It never touches the
// file system and does not confine: see [Options].Confine.
func ResolvePath(p, dir string) string {
	p = unicodeSpaces.Replace(p)
	p = strings.TrimPrefix(p, "@")
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if strings.HasPrefix(p, "file://") {
		if u, err := url.Parse(p); err == nil && u.Path != "" {
			p = u.Path
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(absDir(dir), p)
}

// absDir is dir made absolute.
func absDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return filepath.Clean(dir)
}

// readPathVariants are the spellings pi tries when a path to read does not
// exist: macOS screenshot names with a narrow no-break space before AM/PM,
// and a typed apostrophe for the curly one.
func readPathVariants(p string) []string {
	var out []string
	ampm := p
	for _, suffix := range []string{" AM.", " PM.", " am.", " pm.", " Am.", " Pm.", " aM.", " pM."} {
		ampm = strings.ReplaceAll(ampm, suffix, "\u202f"+suffix[1:])
	}
	if ampm != p {
		out = append(out, ampm)
	}
	if curly := strings.ReplaceAll(p, "'", "\u2019"); curly != p {
		out = append(out, curly)
	}
	return out
}

// resolver resolves and, when confined, checks the paths of one tool set.
type resolver struct {
	dir     string
	fsys    FS
	confine bool
	// kernel is set when fsys confines itself ([Confiner]): the check is
	// then only lexical, fsys refuses the rest at each open.
	kernel bool
}

// resolve returns the absolute path of p, or an error wrapping
// [ErrOutsideDir] when confined and p leaves the directory.
func (r resolver) resolve(ctx context.Context, p string) (string, error) {
	abs := ResolvePath(p, r.dir)
	if !r.confine {
		return abs, nil
	}
	return abs, r.check(ctx, abs)
}

// resolveRead is resolve for the read tool: it tries pi's spelling
// variants of a path that does not exist.
func (r resolver) resolveRead(ctx context.Context, p string) (string, error) {
	abs := ResolvePath(p, r.dir)
	if _, err := r.fsys.Stat(ctx, abs); err != nil {
		for _, v := range readPathVariants(abs) {
			if _, err := r.fsys.Stat(ctx, v); err == nil {
				abs = v
				break
			}
		}
	}
	if !r.confine {
		return abs, nil
	}
	return abs, r.check(ctx, abs)
}

// check reports whether abs stays inside the directory: lexically, and,
// when the FS resolves links ([RealPather]), after following them from
// the longest existing prefix.
func (r resolver) check(ctx context.Context, abs string) error {
	root := absDir(r.dir)
	if !within(root, abs) {
		return fmt.Errorf("%w: %s", ErrOutsideDir, abs)
	}
	if r.kernel {
		// fsys refuses at each use; this only gives every tool the same
		// early error.
		if _, err := r.fsys.Stat(ctx, abs); errors.Is(err, ErrOutsideDir) {
			return err
		}
		return nil
	}
	rp, ok := r.fsys.(RealPather)
	if !ok {
		return nil
	}
	realRoot, err := rp.RealPath(ctx, root)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrOutsideDir, root, err)
	}
	// Follow links in the part that exists; the rest is created below it.
	existing, rest := abs, ""
	for {
		real, err := rp.RealPath(ctx, existing)
		if err == nil {
			if !within(realRoot, filepath.Join(real, rest)) {
				return fmt.Errorf("%w: %s resolves to %s", ErrOutsideDir, abs, filepath.Join(real, rest))
			}
			return nil
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return nil
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
}

// within reports whether p is root or below it; both are clean and
// absolute.
func within(root, p string) bool {
	if p == root {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(p, root)
}
