package codingtools

import (
	"strconv"
	"strings"
)

// EditDetails are the details of an edit result: the diff a UI shows, the
// unified patch, and the first changed line of the new file.
type EditDetails struct {
	Diff             string `json:"diff"`
	Patch            string `json:"patch"`
	FirstChangedLine int    `json:"firstChangedLine,omitempty"`
}

// diffWindowMargin is how many unchanged lines around a replacement are
// diffed: well above the 4 shown, so a window aligns as the whole file.
const diffWindowMargin = 32

type diffWindow struct {
	oldStart, oldEnd, oldLine int
	newStart, newEnd, newLine int
}

// lineStartBefore is the start of the line holding offset.
func lineStartBefore(text string, offset int) int {
	if offset == 0 {
		return 0
	}
	return strings.LastIndexByte(text[:offset], '\n') + 1
}

// diffWindows are whole-line windows with margins around sorted, disjoint
// replacements; overlapping windows merge.
func diffWindows(base string, reps []replacement) []diffWindow {
	var windows []diffWindow
	offsetDelta, lineDelta, cursorOffset, cursorLine := 0, 0, 0, 0
	for _, r := range reps {
		matchEnd := r.index + r.length
		start := lineStartBefore(base, r.index)
		for i := 0; i < diffWindowMargin && start > 0; i++ {
			start = lineStartBefore(base, start-1)
		}
		end := matchEnd
		for i := 0; i <= diffWindowMargin && end < len(base); i++ {
			from := end
			if i == 0 {
				from = max(matchEnd-1, r.index)
			}
			if lf := strings.IndexByte(base[from:], '\n'); lf == -1 {
				end = len(base)
			} else {
				end = from + lf + 1
			}
		}
		repOffsetDelta := len(r.newText) - r.length
		repLineDelta := strings.Count(r.newText, "\n") - strings.Count(base[r.index:matchEnd], "\n")
		if n := len(windows); n > 0 && start <= windows[n-1].oldEnd {
			w := &windows[n-1]
			w.oldEnd = max(w.oldEnd, end)
			w.newEnd = w.oldEnd + offsetDelta + repOffsetDelta
		} else {
			cursorLine += strings.Count(base[cursorOffset:start], "\n")
			cursorOffset = start
			windows = append(windows, diffWindow{
				oldStart: start, oldEnd: end, oldLine: cursorLine,
				newStart: start + offsetDelta, newEnd: end + offsetDelta + repOffsetDelta, newLine: cursorLine + lineDelta,
			})
		}
		offsetDelta += repOffsetDelta
		lineDelta += repLineDelta
	}
	return windows
}

// editDiff diffs an edit around its replacements only, so time and memory
// follow the size of the change, not of the file.
func editDiff(path, base, newContent string, reps []replacement) EditDetails {
	const context = 4
	width := len(strconv.Itoa(max(strings.Count(base, "\n"), strings.Count(newContent, "\n")) + 1))
	skip := " " + strings.Repeat(" ", width) + " ..."
	var out []string
	var hunks []hunk
	first := 0
	for _, w := range diffWindows(base, reps) {
		oldText, newText := base[w.oldStart:w.oldEnd], newContent[w.newStart:w.newEnd]
		shown, fc := displayDiff(diffLines(oldText, newText), w.oldLine+1, w.newLine+1, width, context)
		if first == 0 {
			first = fc
		}
		if len(out) > 0 && len(shown) > 0 && out[len(out)-1] == skip && shown[0] == skip {
			shown = shown[1:]
		}
		out = append(out, shown...)
		for _, h := range structuredHunks(oldText, newText, context) {
			h.oldStart += w.oldLine
			h.newStart += w.newLine
			hunks = append(hunks, h)
		}
	}
	return EditDetails{Diff: strings.Join(out, "\n"), Patch: formatPatch(path, hunks), FirstChangedLine: first}
}
