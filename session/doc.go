// Package session reads and writes the session files of the pi coding
// agent (pi-coding-agent 1.6.0): a conversation a person can resume,
// branch and label, stored as one JSON object per line whose entries form
// a tree. A file written here opens in pi, and a file pi wrote opens here
// with the same tree and the same context.
//
// # Resume an Agent
//
//	s, err := session.Open(path, nil) // or session.Create(dir, cwd, nil)
//	if err != nil { ... }
//	defer s.Close()
//	agent := agentcore.New(s.Restore(opts, models.Lookup))
//
// [Session.Restore] fills the options from the current leaf (transcript,
// model, thinking level; a model the program gives is kept, the lookup
// filling only what it leaves out) and adds [Session.Layer], which appends every
// message the Agent ends. The Agent's leading system message is not
// recorded: the prompt comes from the options each time. Record the
// compactions of package compaction with [Session.OnCompaction].
//
// # Files
//
// A session lives in a file <dir>/<time>_<id>.jsonl, the directory of a
// working directory being [Dir] (under [AgentDir], ~/.pi/agent). The
// first line is a [Header]; each other line an [Entry]: messages, model
// and thinking-level changes, compactions, branch summaries, labels,
// names, context edits, usage, and extensions' custom entries and
// messages, each written with pi's fields in pi's order. A type this
// package does not know is kept as an [*UnknownEntry] and written back
// unchanged. Files of versions 1 and 2 are migrated on open as pi
// migrates them. [List], [Delete], [Session.Fork] (a new file holding one
// branch) and [ForkFrom] (a copy into another working directory) manage
// the files.
//
// # The tree
//
// Each entry names its parent. [Session.Append] adds a child of the leaf
// and makes it the leaf; [Session.Branch] moves the leaf back to an
// earlier entry, so the next append starts a branch; [Session.BranchWithSummary]
// does so with a summary of the branch left. [Session.Path] is the branch
// from the root to a leaf, [Session.Tree] the whole tree with labels.
// [Session.Context] ([BuildContext]) is what a model sees from the leaf,
// built as pi builds it: the latest compaction on the branch replaces what
// it summarized, context edits apply, and the model and thinking level
// are the last ones set.
//
// # Safety
//
// Every entry is written with one write of one line at the end of the
// file, so a crash leaves whole lines and at worst a torn last one. On
// open, a line that is not an entry is skipped, as pi skips it, and
// reported to [Options.OnBadLine] with its number ([*LineError]); a
// torn last line is then ended so that appends start on a line of their
// own. A writer holds the lock directory <file>.lock, the lock
// proper-lockfile makes, from open to [Session.Close]: a second writer
// gets [ErrLocked], and appends from many goroutines are serialized. pi
// 1.6.0 itself takes no lock on its session files; readers
// ([Options].ReadOnly) need none.
//
// Memory grows with the number of entries, not with their size. [Open]
// reads the file a line at a time, never whole, and decodes every line,
// so that a bad one is reported at once. Of a version 3 file it keeps
// in memory only the tree: each entry's type, ID, parent and timestamp,
// a message's role and an assistant message's model, and the place of
// its line; labels, names, model and thinking-level changes, context
// edits and usage entries, which are small, are kept whole. Messages,
// custom messages, compactions, branch summaries, custom and unknown
// entries are read back from the file when a method returns them, and
// the latest few megabytes of them are cached. A session of 8 KB
// messages opens in about 3% of its size (some 220 bytes an entry);
// [Session.Context] reads back only the entries after the branch's
// latest compaction, and [Session.Path], [Session.Entry] and
// [Session.Children] only what they return; [Session.Entries],
// [Session.Tree], [Session.Fork] and [ForkFrom] read every entry they
// return, and the caller then holds them all. An entry read back is a
// new value each time it is not in the cache: compare entries by ID.
// Entries appended, a session made by [Create] and a file of version 1
// or 2 (migrated, so rewritten whole) are kept in memory.
//
// The session reads back through the file it opened, until
// [Session.Close], then by opening the path again. It checks each line
// it reads back against the tree; a file cut, replaced or rewritten under
// the session by a program that ignores its lock gives, in place of the
// entry, an [*UnknownEntry] with its tree fields (no part of a context),
// and [Session.Err] reports [ErrChanged].
package session
