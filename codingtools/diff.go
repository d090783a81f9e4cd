package codingtools

import (
	"fmt"
	"strings"
)

// change is one run of a line diff: lines kept, added or removed, with
// their line endings.
type change struct {
	value          string
	count          int
	added, removed bool
}

// splitAfterNewlines splits s into lines that keep their "\n".
func splitAfterNewlines(s string) []string {
	if s == "" {
		return nil
	}
	out := strings.SplitAfter(s, "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// component is a run on a diff path; paths share their earlier runs.
type component struct {
	count          int
	added, removed bool
	prev           *component
}

type diffPath struct {
	oldPos int
	last   *component
}

// diffLines is the line diff pi's edit tool shows: the Myers algorithm as
// jsdiff 8 runs it, with its tie-breaks, so equal inputs give equal runs.
func diffLines(oldText, newText string) []change {
	oldT, newT := splitAfterNewlines(oldText), splitAfterNewlines(newText)
	oldLen, newLen := len(oldT), len(newT)
	extract := func(p *diffPath, diagonal int) int {
		oldPos := p.oldPos
		newPos := oldPos - diagonal
		common := 0
		for newPos+1 < newLen && oldPos+1 < oldLen && oldT[oldPos+1] == newT[newPos+1] {
			newPos, oldPos, common = newPos+1, oldPos+1, common+1
		}
		if common > 0 {
			p.last = &component{count: common, prev: p.last}
		}
		p.oldPos = oldPos
		return newPos
	}
	addTo := func(p *diffPath, added, removed bool, inc int) *diffPath {
		last := p.last
		if last != nil && last.added == added && last.removed == removed {
			return &diffPath{oldPos: p.oldPos + inc, last: &component{count: last.count + 1, added: added, removed: removed, prev: last.prev}}
		}
		return &diffPath{oldPos: p.oldPos + inc, last: &component{count: 1, added: added, removed: removed, prev: last}}
	}
	offset := oldLen + newLen + 1
	best := make([]*diffPath, 2*offset+1)
	best[offset] = &diffPath{oldPos: -1}
	newPos := extract(best[offset], 0)
	if best[offset].oldPos+1 >= oldLen && newPos+1 >= newLen {
		return buildChanges(best[offset].last, oldT, newT)
	}
	minDiag, maxDiag := -offset, offset
	for editLength := 1; editLength <= oldLen+newLen; editLength++ {
		for d := max(minDiag, -editLength); d <= min(maxDiag, editLength); d += 2 {
			remove, add := best[offset+d-1], best[offset+d+1]
			if remove != nil {
				best[offset+d-1] = nil
			}
			canAdd := false
			if add != nil {
				addNewPos := add.oldPos - d
				canAdd = addNewPos >= 0 && addNewPos < newLen
			}
			canRemove := remove != nil && remove.oldPos+1 < oldLen
			if !canAdd && !canRemove {
				best[offset+d] = nil
				continue
			}
			var base *diffPath
			if !canRemove || (canAdd && remove.oldPos < add.oldPos) {
				base = addTo(add, true, false, 0)
			} else {
				base = addTo(remove, false, true, 1)
			}
			newPos = extract(base, d)
			if base.oldPos+1 >= oldLen && newPos+1 >= newLen {
				return buildChanges(base.last, oldT, newT)
			}
			best[offset+d] = base
			if base.oldPos+1 >= oldLen {
				maxDiag = min(maxDiag, d-1)
			}
			if newPos+1 >= newLen {
				minDiag = max(minDiag, d+1)
			}
		}
	}
	return nil
}

// buildChanges turns the runs of a diff path into changes with values.
func buildChanges(last *component, oldT, newT []string) []change {
	var comps []*component
	for c := last; c != nil; c = c.prev {
		comps = append(comps, c)
	}
	out := make([]change, 0, len(comps))
	newPos, oldPos := 0, 0
	for i := len(comps) - 1; i >= 0; i-- {
		c := comps[i]
		ch := change{count: c.count, added: c.added, removed: c.removed}
		if !c.removed {
			ch.value = strings.Join(newT[newPos:newPos+c.count], "")
			newPos += c.count
			if !c.added {
				oldPos += c.count
			}
		} else {
			ch.value = strings.Join(oldT[oldPos:oldPos+c.count], "")
			oldPos += c.count
		}
		out = append(out, ch)
	}
	return out
}

// displayDiff formats changes as pi's edit tool shows them: numbered
// lines, "+" and "-" for changes, context lines around them and "..." for
// skipped runs. firstChanged is the new-file line of the first change, 0
// when there is none.
func displayDiff(parts []change, oldLine, newLine, width, context int) (out []string, firstChanged int) {
	num := func(n int) string { return fmt.Sprintf("%*d", width, n) }
	skip := " " + strings.Repeat(" ", width) + " ..."
	lastWasChange := false
	for i, p := range parts {
		raw := strings.Split(p.value, "\n")
		if raw[len(raw)-1] == "" {
			raw = raw[:len(raw)-1]
		}
		if p.added || p.removed {
			if firstChanged == 0 {
				firstChanged = newLine
			}
			for _, line := range raw {
				if p.added {
					out = append(out, "+"+num(newLine)+" "+line)
					newLine++
				} else {
					out = append(out, "-"+num(oldLine)+" "+line)
					oldLine++
				}
			}
			lastWasChange = true
			continue
		}
		context1 := func(lines []string) {
			for _, line := range lines {
				out = append(out, " "+num(oldLine)+" "+line)
				oldLine++
				newLine++
			}
		}
		nextIsChange := i < len(parts)-1 && (parts[i+1].added || parts[i+1].removed)
		switch {
		case lastWasChange && nextIsChange:
			if len(raw) <= context*2 {
				context1(raw)
			} else {
				context1(raw[:context])
				out = append(out, skip)
				skipped := len(raw) - 2*context
				oldLine += skipped
				newLine += skipped
				context1(raw[len(raw)-context:])
			}
		case lastWasChange:
			shown := raw[:min(context, len(raw))]
			context1(shown)
			if skipped := len(raw) - len(shown); skipped > 0 {
				out = append(out, skip)
				oldLine += skipped
				newLine += skipped
			}
		case nextIsChange:
			skipped := max(0, len(raw)-context)
			if skipped > 0 {
				out = append(out, skip)
				oldLine += skipped
				newLine += skipped
			}
			context1(raw[skipped:])
		default:
			oldLine += len(raw)
			newLine += len(raw)
		}
		lastWasChange = false
	}
	return out, firstChanged
}

// hunk is one hunk of a unified patch.
type hunk struct {
	oldStart, oldLines, newStart, newLines int
	lines                                  []string
}

// patchLines splits a change's value into lines with their "\n", the last
// one without when the value does not end in one.
func patchLines(text string) []string {
	parts := strings.Split(text, "\n")
	if strings.HasSuffix(text, "\n") {
		parts = parts[:len(parts)-1]
		for i := range parts {
			parts[i] += "\n"
		}
		return parts
	}
	for i := 0; i < len(parts)-1; i++ {
		parts[i] += "\n"
	}
	return parts
}

// structuredHunks are the hunks of a unified patch from oldText to newText
// with context lines of context, as jsdiff's structuredPatch makes them.
func structuredHunks(oldText, newText string, context int) []hunk {
	diff := diffLines(oldText, newText)
	diff = append(diff, change{})
	lineSets := make([][]string, len(diff))
	for i := range diff {
		if i < len(diff)-1 {
			lineSets[i] = patchLines(diff[i].value)
		}
	}
	var hunks []hunk
	oldStart, newStart, oldLine, newLine := 0, 0, 1, 1
	var cur []string
	prefixed := func(prefix string, lines []string) {
		for _, l := range lines {
			cur = append(cur, prefix+l)
		}
	}
	for i, c := range diff {
		lines := lineSets[i]
		if c.added || c.removed {
			if oldStart == 0 {
				oldStart, newStart = oldLine, newLine
				if i > 0 {
					prev := lineSets[i-1]
					cur = nil
					if context > 0 {
						prefixed(" ", prev[max(0, len(prev)-context):])
					}
					oldStart -= len(cur)
					newStart -= len(cur)
				}
			}
			if c.added {
				prefixed("+", lines)
				newLine += len(lines)
			} else {
				prefixed("-", lines)
				oldLine += len(lines)
			}
			continue
		}
		if oldStart != 0 {
			if len(lines) <= context*2 && i < len(diff)-2 {
				prefixed(" ", lines)
			} else {
				n := min(len(lines), context)
				prefixed(" ", lines[:n])
				hunks = append(hunks, hunk{oldStart: oldStart, oldLines: oldLine - oldStart + n, newStart: newStart, newLines: newLine - newStart + n, lines: cur})
				oldStart, newStart, cur = 0, 0, nil
			}
		}
		oldLine += len(lines)
		newLine += len(lines)
	}
	for h := range hunks {
		var lines []string
		for _, l := range hunks[h].lines {
			if strings.HasSuffix(l, "\n") {
				lines = append(lines, l[:len(l)-1])
			} else {
				lines = append(lines, l, `\ No newline at end of file`)
			}
		}
		hunks[h].lines = lines
	}
	return hunks
}

// formatPatch writes a unified patch of one file with file headers only.
func formatPatch(name string, hunks []hunk) string {
	var b strings.Builder
	b.WriteString("--- " + name + "\n+++ " + name + "\n")
	for _, h := range hunks {
		if h.oldLines == 0 {
			h.oldStart--
		}
		if h.newLines == 0 {
			h.newStart--
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", h.oldStart, h.oldLines, h.newStart, h.newLines)
		for _, l := range h.lines {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
