// Package codingtools gives an agent the seven tools of pi's coding agent
// (pi-coding-agent 1.6.0): read, write, edit, bash, grep, find and ls, as
// [agentcore.Tool] values for one working directory. Their names,
// parameter schemas and descriptions are pi's byte for byte, and so are
// their results — the text the model sees and the details a UI reads — so
// a model prompted for pi's tools works unchanged.
//
//	tools := codingtools.CodingTools(dir, nil) // read, bash, edit, write
//	agent := agentcore.New(agentcore.Options{Model: model, StreamFn: stream, Tools: tools})
//
// # Sets
//
// [CodingTools] is pi's default set (read, bash, edit, write),
// [ReadOnlyTools] the one that cannot change anything (read, grep, find,
// ls), and [AllTools] all seven. [Tool] makes one by name. [Prompt] gives
// the snippet and guidelines pi adds to its system prompt for each tool.
//
// # Behavior
//
//   - read: text from a 1-based offset for limit lines, cut at 2,000
//     lines or 50 KB ([DefaultMaxLines], [DefaultMaxBytes]) with pi's
//     notice telling the model which offset continues; a first line over
//     the limit is named, not shown. The file is streamed: a 1 GB file
//     costs no more memory than a small one. JPEG, PNG, GIF and WebP are
//     sent as image blocks. A byte order mark and CR line endings are kept;
//     invalid UTF-8 becomes U+FFFD as in Node.
//   - write: creates parent directories and replaces the file.
//   - edit: several disjoint replacements matched against the original
//     text, with pi's errors for a missing, repeated, empty or overlapping
//     oldText; line endings and a byte order mark survive, typographic
//     quotes, dashes, spaces and trailing whitespace match their ASCII
//     forms, and the details hold the diff and a unified patch. The
//     argument shapes models send by mistake (edits as a JSON string or as
//     one object, top-level oldText/newText) are repaired by
//     [agentcore.Tool].PrepareArguments.
//   - bash: stdout and stderr combined, the last 2,000 lines or 50 KB kept
//     and the full output saved to a temporary file, a timeout in seconds,
//     the exit code; a command runs in a process group of its own, which
//     abort and timeout kill whole, with pi's environment (pi's bin folder
//     first on PATH, pi's session variables removed, PWD inherited). Edits
//     and writes of one file from parallel calls run one at a time.
//   - grep and find: walk the tree themselves, as ripgrep and fd (which pi
//     runs) would with pi's flags: hidden files included, nested
//     .gitignore files obeyed (grep only inside a git repository, as
//     ripgrep), globs, limits, long lines cut at 500 characters, pi's
//     notices. Neither binary is needed. grep walks on one goroutine and
//     reads and searches files on one per core, each whole (one over 4 MB
//     streams), running the pattern only on the lines that hold a literal
//     every match needs (or one of an alternation's); results keep the
//     order below.
//   - ls: entries sorted case-insensitively, "/" after directories,
//     dotfiles included, a limit.
//
// # Backends
//
// The tools touch files only through an [FS] and run commands only
// through a [Shell], pi's *Operations: implement them to work in a
// container, a sandbox or on a remote machine. [LocalFS] and [LocalShell]
// are the defaults.
//
// # Confinement
//
// Paths are resolved as pi resolves them ([ResolvePath]): relative to the
// working directory, but absolute paths, "..", "~" and symbolic links may
// lead anywhere. [Options].Confine refuses those with [ErrOutsideDir].
// With [LocalFS] (any FS that is a [Confiner]) the kernel holds it: every
// file is opened through an [os.Root] of the directory, one component at a
// time with O_NOFOLLOW and links resolved by hand, so a dangling link, a
// link swapped between a check and the open, or one created during a call
// cannot lead outside — read, write (new files and directories
// included), edit, ls, find and grep. Links inside the directory are
// followed, absolute links refused. A regular file with more than one hard
// link is refused ([ErrHardLink]): another of its names may be outside.
// With another FS, Confine checks paths and, when the FS is a
// [RealPather], their links before use, which a concurrent change of the
// tree can race.
//
// [LocalFS] never opens a FIFO, socket or device ([ErrSpecialFile]),
// confined or not: a FIFO with no writer cannot block a call, /dev/zero
// cannot feed one forever.
//
// bash cannot be confined this way: a command reaches any file the
// process can. A program that confines leaves bash out ([ReadOnlyTools],
// or its own list) or runs it in a sandbox through its own [Shell].
//
// # Bounded commands
//
// [LocalShell].Limits bound what a command and everything it starts may
// use: processes, memory, CPU rate and time, and output ([ShellLimits]).
// Processes, memory and CPU rate are bound by a cgroup of the command's
// own (v2, where the kernel starts the command inside it, else v1's
// controllers), which binds root too and which abort, timeout and the
// command's end kill whole; where no cgroup can be made,
// by rlimits of a user other than root ([ShellLimits].UID), since
// RLIMIT_NPROC does not bind root. A bound that cannot be established
// fails the command with [ErrUnbounded] before anything runs. A command
// run as root that means to escape can leave its cgroup and raise its
// rlimits: against a hostile command, set [ShellLimits].UID too.
//
//	shell := &codingtools.LocalShell{Limits: &codingtools.ShellLimits{
//		Processes: 256, Memory: 2 << 30, CPUs: 1, CPUTime: 10 * time.Minute, Output: 100 << 20,
//	}}
//	tools := codingtools.CodingTools(dir, &codingtools.Options{Shell: shell})
//
// Confine keeps the tools inside the working directory, not away from
// what the program keeps there: a session folder, a transcript, a hold
// state or a config file inside the working directory can be read, edited
// and overwritten by write and edit (a model could rewrite its own
// history or a held call's approval). Keep such files outside the working
// directory (pi keeps its session files under ~/.pi/agent: session.Dir
// of session.AgentDir()), or give the tools an [FS] that refuses their
// paths.
//
// # Checked against pi
//
// testdata/record/record.mjs runs pi's own tools (npm, exact version)
// over testdata/corpus — nested .gitignore files, binary, image and
// corrupt image files, CRLF and BOM files, long lines, unicode and
// decomposed names, a working directory reached through a link — for 259
// calls and saves
// their results in testdata/pi_calls.json; TestReplayPiCalls replays them
// and all are equal, on the disk and on an in-memory FS. pi runs ripgrep
// and fd unordered and in parallel; the recording runs them sorted, and
// these tools give that order: grep in path order (each directory's
// entries in byte order, depth first, as ripgrep --sort=path), find its
// results sorted by byte order, the first limit of them.
//
// # Differences kept
//
// Behaviors the recording does not reach, where these tools differ from
// pi, and why:
//
//   - Images are sent as they are: pi shrinks images over its size limits
//     and converts BMP to PNG with a WebAssembly image library the
//     standard library cannot replace; a BMP gets pi's "could not be
//     converted" note instead. A PNG, JPEG or GIF that does not decode
//     gets pi's note for an image it cannot resize; a WebP, which the
//     standard library cannot decode, and an image of more than 16
//     million pixels, which would take too much memory to decode, are
//     sent unchecked.
//   - edit's fuzzy match skips pi's first step, Unicode NFKC
//     normalization, which the standard library lacks; read does not try
//     the NFD spelling of a missing path (for macOS).
//   - grep's patterns are Go regular expressions (RE2), not Rust's: nearly
//     the same syntax, but \w, \d and \b are ASCII-only. Errors other than
//     an unclosed or unopened group or class keep Go's words.
//   - grep skips a file as binary when its first 64 KB hold a NUL byte and
//     stops at a later NUL, close to ripgrep's buffer-wise rule.
//   - Only .gitignore files are read: not ripgrep's and fd's .ignore,
//     .rgignore and .fdignore, not .git/info/exclude or the global
//     excludes file; a nested repository is not a boundary.
//   - ls sorts with an approximation of localeCompare (the root collation
//     for ASCII and accented Latin letters, precomposed or decomposed:
//     accents count only between names otherwise equal); names equal but
//     for case or accents follow byte order where pi keeps the
//     directory's order or ICU compares accents.
//   - bash sets no PI_* variables (pi's describe its session; like pi it
//     removes inherited ones), so pi's guideline about them is left out of
//     [Prompt]; partial results are sent at most every 100 ms while output
//     arrives, without pi's trailing timer.
//   - read takes a fractional offset or limit as its integer part (a
//     negative limit slices as pi's does: -1 is all lines but the last).
//   - read, edit and write refuse FIFOs, sockets and devices
//     ([ErrSpecialFile]), where pi blocks on a FIFO or reads /dev/zero
//     until memory runs out.
//   - Node's error texts are reproduced for missing, unreadable and
//     wrong-type files; other errors keep Go's text.
//   - pi's Windows-only powershell tool is not ported.
package codingtools
