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
// filling only what it leaves out) and adds [Session.Layer], which
// appends every message the Agent ends and records every other change of
// its transcript (a held call's real result in place of its placeholder,
// SetMessages, Reset), so that the file's context is the Agent's
// transcript. The Agent's leading system message is not recorded: the
// prompt comes from the options each time. Record the
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
// # Nothing lost
//
// pi keeps every line of a file that parses as JSON, whatever it holds,
// and so does this package: an entry whose numbers are no Go integers
// (1.5 tokens, a timestamp of 1e21), whose members have other types, or
// that lacks its ID, its parent or its message is an entry here too, and
// a line holding a JSON value other than an object (a number, a string,
// an array) is an [*UnknownEntry] with no type and no ID, as pi holds it
// (only null, false, 0 and "", which pi skips, are skipped). An entry
// read from a file is never re-encoded: a migration, [Session.Fork] and
// [ForkFrom] write it back from its line as pi writes it back
// (JSON.stringify of what JSON.parse made of it), so its numbers, its
// unknown members, the presence of each key (absent, null, "" or []) and
// its strings, lone surrogates included, are pi's. The header's unknown
// members are kept likewise, and a version that is a string ("2") is
// compared as pi compares it.
//
// # Byte for byte
//
// Every line is written as JSON.stringify writes it: '<', '>', '&',
// U+2028 and U+2029 raw, JavaScript's number formatting and key order.
// With [Options].Now and [Options].NewEntryID giving the times and IDs pi
// drew, a script of calls writes the file pi writes for the same calls,
// byte for byte (the tests replay pi's recorded scripts), and a fork of a
// file writes pi's fork of it.
//
// # Departures from pi
//
// Each keeps the file as pi keeps it; what differs is what a Go value
// holds or what happens where pi fails:
//
//   - Values in Go types: an entry's or a context message's integer that
//     is no int64 (1.5, 1e21) is held truncated or saturated, and a
//     member a Go type requires but the line lacks is its zero value (a
//     compaction summary message's summary "", a model change's model
//     "", a thinking level ""); a user message's null content is an empty
//     block list, as pi's context makes it. Entries built in Go hold Go
//     values: a [Label] with no text is written without "label" (pi's
//     appendLabelChange(id) with no label; pi's "" is read and kept), a
//     message is written in agentcore's member order, a string cannot
//     hold a lone surrogate.
//   - An entry of a known type whose members do not fit it (a provider
//     that is a number) is an [*UnknownEntry] of that type, and a message
//     entry without a message one of type "message": kept and written
//     back, but no part of a context, where pi uses the odd values (and
//     its context builder throws on a message entry without a message).
//   - pi fails to open a version 1 file holding a line that is a number,
//     a string or true; such a line is kept here, with no ID. [ForkFrom]
//     migrates a source of version 1 or 2 before copying it, where pi
//     copies its entries unmigrated under a version 3 header.
//   - A cycle in the parents (a hand-edited file, or entries without an
//     ID, which share one node in pi's tree) ends [Session.Path] and
//     [Session.Tree] at the entry reached again, where pi loops forever.
//   - The model reads a branch summary, a compaction summary and a
//     command the user ran (pi's bashExecution message) in this module's
//     own words around pi's facts ([ConvertMessages]).
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
// open, a line that is not JSON, or that holds null, false, 0 or "", is
// skipped, as pi skips it, and reported to [Options.OnBadLine] with its
// number ([*LineError]); a
// torn last line is then ended so that appends start on a line of their
// own.
//
// A writer holds an exclusive flock(2) on the file <file>.lock from
// [Open] (or, for [Create], from the moment the file is first written)
// to [Session.Close]; appends from many goroutines are serialized. Of
// writers racing for a file exactly one wins; a second writer gets a
// [*LockedError] ([ErrLocked]) naming the holder's process, host and
// start, which the holder records in the lock file. The kernel releases
// the lock when its holder dies, however it dies (kill -9 included), so
// a crashed writer's lock is taken over by the next writer without a
// person; a live writer keeps it however long it idles, and Close
// removes the lock file only while it is still its own. Where flock(2)
// does not exist (not Unix) the lock is a file created exclusively, and
// a crashed writer's stays until removed by hand. On a network file
// system the lock is as good as the server's flock. pi 1.6.0 itself
// takes no lock on its session files; readers ([Options].ReadOnly)
// need none. [LockPath] takes the same lock for any path, for a program
// that must serialize something beside its files, such as the creation
// of a conversation's first file.
//
// Before each append the session checks that the path still names the
// file it wrote, of the size it wrote: a file another program appended
// to, cut, removed or replaced refuses the append with [ErrChanged],
// and the entry is not added, so nothing lands after lines the session
// does not know.
//
// Memory grows with the number of entries, not with their size. A line
// longer than [Options.MaxLineBytes] (64 MiB by default) is read through
// without being held and reported as a [*LineError] wrapping
// [ErrLineTooLong]; it stays in the file, but not in the session (a
// departure: pi reads any line its JavaScript strings can hold), and a
// file of an older version holding one is refused rather than migrated
// without it. [Open]
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
// Lines decode independently, so [Open] decodes a version 3 file's lines
// on up to GOMAXPROCS goroutines (8 at most), a bounded number of lines
// ahead of the one it takes into the tree, and reading entries back for a
// context decodes them the same way; each call joins its goroutines
// before it returns, and [Options.OnBadLine] is still called in file
// order on the opening goroutine. The decoders of [Options.Registry] are
// called from those goroutines, several at once. bench/session compares
// open + context with pi's (BENCHMARKS.md).
//
// The session reads back through the file it opened, until
// [Session.Close], then by opening the path again. It checks each line
// it reads back against the tree; a file cut, replaced or rewritten under
// the session by a program that ignores its lock gives, in place of the
// entry, an [*UnknownEntry] with its tree fields (no part of a context),
// and [Session.Err] reports [ErrChanged].
package session
