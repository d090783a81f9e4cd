package codingtools

import (
	"context"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// walkEntry is a file or directory met by walk.
type walkEntry struct {
	abs   string
	rel   string // relative to the walk's root, with "/"
	isDir bool
	mode  fs.FileMode // type bits, links not followed
}

// walker walks a tree the way ripgrep and fd do with --hidden: hidden
// files included, .gitignore files (nested, and the parents' given)
// obeyed when useIgnore, entries of each directory in byte order of their
// names.
type walker struct {
	fs        FS
	useIgnore bool
	// override, optional, decides before the .gitignore files: 1 ignores
	// the entry, -1 keeps it whatever they say, 0 leaves it to them.
	override func(e walkEntry) int
	// visit is called for each entry not ignored; it returns false to end
	// the walk.
	visit func(e walkEntry) bool
}

// walk walks the directory root; parents are the .gitignore files that
// apply above it.
func (w *walker) walk(ctx context.Context, root string, parents ignoreStack) error {
	_, err := w.dir(ctx, root, "", parents)
	return err
}

func (w *walker) dir(ctx context.Context, abs, rel string, stack ignoreStack) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if w.useIgnore {
		if f := loadIgnore(ctx, w.fs, abs); f != nil {
			stack = append(slices.Clip(stack), f)
		}
	}
	entries, err := w.fs.ReadDir(ctx, abs)
	if err != nil {
		return true, nil // unreadable directories are skipped, as rg and fd do
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, de := range entries {
		e := walkEntry{abs: path.Join(abs, de.Name()), rel: path.Join(rel, de.Name()), isDir: de.IsDir(), mode: de.Type()}
		verdict := 0
		if w.override != nil {
			verdict = w.override(e)
		}
		if verdict == 1 || verdict == 0 && w.useIgnore && stack.ignored(e.abs, e.isDir) {
			continue
		}
		if !w.visit(e) {
			return false, nil
		}
		if e.isDir {
			more, err := w.dir(ctx, e.abs, e.rel, stack)
			if err != nil || !more {
				return more, err
			}
		}
	}
	return true, nil
}
