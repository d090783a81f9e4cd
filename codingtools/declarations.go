package codingtools

import "encoding/json"

// declaration is what a model is told about one tool: pi's name,
// description and parameter schema, byte for byte, so a model prompted
// for pi's tools works unchanged.
type declaration struct {
	description string
	parameters  json.RawMessage
}

// declarations are pi-coding-agent 1.6.0's tool declarations.
var declarations = map[string]declaration{
	"read": {
		description: "Read the contents of a file. Supports text files and images (jpg, png, gif, webp, bmp). Images are sent as attachments. For text files, output is truncated to 2000 lines or 50KB (whichever is hit first). Use offset/limit for large files. When you need the full file, continue with offset until complete.",
		parameters:  json.RawMessage(`{"type":"object","required":["path"],"properties":{"path":{"type":"string","description":"Path to the file to read (relative or absolute)"},"offset":{"type":"number","description":"Line number to start reading from (1-indexed)"},"limit":{"type":"number","description":"Maximum number of lines to read"}}}`),
	},
	"bash": {
		description: "Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to last 2000 lines or 50KB (whichever is hit first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds.",
		parameters:  json.RawMessage(`{"type":"object","required":["command"],"properties":{"command":{"type":"string","description":"Shell command to execute"},"timeout":{"type":"number","description":"Timeout in seconds (optional, no default timeout)"}}}`),
	},
	"edit": {
		description: "Edit a single file using exact text replacement. Every edits[].oldText must match a unique, non-overlapping region of the original file. If two changes affect the same block or nearby lines, merge them into one edit instead of emitting overlapping edits. Do not include large unchanged regions just to connect distant changes.",
		parameters:  json.RawMessage(`{"type":"object","required":["path","edits"],"properties":{"path":{"type":"string","description":"Path to the file to edit (relative or absolute)"},"edits":{"type":"array","items":{"type":"object","required":["oldText","newText"],"properties":{"oldText":{"type":"string","description":"Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call."},"newText":{"type":"string","description":"Replacement text for this targeted edit."}}},"description":"One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead."}}}`),
	},
	"write": {
		description: "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
		parameters:  json.RawMessage(`{"type":"object","required":["path","content"],"properties":{"path":{"type":"string","description":"Path to the file to write (relative or absolute)"},"content":{"type":"string","description":"Content to write to the file"}}}`),
	},
	"grep": {
		description: "Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Output is truncated to 100 matches or 50KB (whichever is hit first). Long lines are truncated to 500 chars.",
		parameters:  json.RawMessage(`{"type":"object","required":["pattern"],"properties":{"pattern":{"type":"string","description":"Search pattern (regex or literal string)"},"path":{"type":"string","description":"Directory or file to search (default: current directory)"},"glob":{"type":"string","description":"Filter files by glob pattern relative to path, e.g. 'src/**/*.ts'. Without '/', e.g. '*.ts', it matches file names at any depth"},"ignoreCase":{"type":"boolean","description":"Case-insensitive search (default: false)"},"literal":{"type":"boolean","description":"Treat pattern as literal string instead of regex (default: false)"},"context":{"type":"number","description":"Number of lines to show before and after each match (default: 0)"},"limit":{"type":"number","description":"Maximum number of matches to return (default: 100)"}}}`),
	},
	"find": {
		description: "Search for files by glob pattern. Returns matching file paths relative to the search directory. Respects .gitignore. Output is truncated to 1000 results or 50KB (whichever is hit first).",
		parameters:  json.RawMessage(`{"type":"object","required":["pattern"],"properties":{"pattern":{"type":"string","description":"Glob pattern relative to the search directory, e.g. 'src/**/*.ts'. Without '/', e.g. '*.ts', it matches file names at any depth"},"path":{"type":"string","description":"Directory to search in (default: current directory)"},"limit":{"type":"number","description":"Maximum number of results (default: 1000)"}}}`),
	},
	"ls": {
		description: "List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. Includes dotfiles. Output is truncated to 500 entries or 50KB (whichever is hit first).",
		parameters:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"Directory to list (default: current directory)"},"limit":{"type":"number","description":"Maximum number of entries to return (default: 500)"}}}`),
	},
}

// PromptContribution is what a tool adds to a system prompt: a one-line
// snippet for the tool list and guidelines for their section, as pi
// attaches them (promptSnippet, promptGuidelines).
type PromptContribution struct {
	Snippet    string
	Guidelines []string
}

// prompts are pi's prompt contributions per tool. bash's guideline about
// PI_* variables is left out: these tools set none.
var prompts = map[string]PromptContribution{
	"read":  {Snippet: "Read file contents", Guidelines: []string{"Use read to examine files instead of cat or sed."}},
	"bash":  {Snippet: "Execute bash commands (ls, grep, find, etc.)"},
	"edit":  {Snippet: "Make precise file edits with exact text replacement, including multiple disjoint edits in one call", Guidelines: []string{"Use edit for targeted changes. Batch changes to one file in a single call.", "Each edits[].oldText must exactly and uniquely match the original file. Keep matches short and non-overlapping; merge nearby changes without including large unchanged regions."}},
	"write": {Snippet: "Create or overwrite files", Guidelines: []string{"Use write only for new files or complete rewrites."}},
	"grep":  {Snippet: "Search file contents for patterns (respects .gitignore)"},
	"find":  {Snippet: "Find files by glob pattern (respects .gitignore)"},
	"ls":    {Snippet: "List directory contents"},
}

// Prompt returns the prompt contribution of the tool named name and
// whether it is one of this package's; the caller owns the copy.
func Prompt(name string) (PromptContribution, bool) {
	p, ok := prompts[name]
	p.Guidelines = append([]string(nil), p.Guidelines...)
	return p, ok
}
