package codingtools

import (
	"fmt"
	"regexp"
	"strings"
)

// compileGlob compiles a glob to an anchored regular expression. With
// slashSensitive, "*", "?" and classes never match "/" and "**" as a
// whole path component matches any number of directories: the globs of
// .gitignore files, ripgrep's --glob and fd's --full-path. Without, "*"
// matches anything. Both support "{a,b}" alternatives, "[...]" classes
// ("[!...]" negated) and backslash escapes.
func compileGlob(glob string, slashSensitive, ignoreCase bool) (*regexp.Regexp, error) {
	var b strings.Builder
	if ignoreCase {
		b.WriteString("(?i)")
	}
	b.WriteString("^")
	star, any1 := ".*", "."
	if slashSensitive {
		star, any1 = "[^/]*", "[^/]"
	}
	depth := 0
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch c {
		case '*':
			if i+1 < len(glob) && glob[i+1] == '*' && slashSensitive {
				atStart := i == 0 || glob[i-1] == '/'
				j := i + 2
				switch {
				case atStart && j == len(glob):
					b.WriteString(".*")
					i = j - 1
					continue
				case atStart && glob[j] == '/':
					b.WriteString("(?:.*/)?")
					i = j
					continue
				}
			}
			for i+1 < len(glob) && glob[i+1] == '*' {
				i++
			}
			b.WriteString(star)
		case '?':
			b.WriteString(any1)
		case '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end == 0 && i+2 < len(glob) {
				end = strings.IndexByte(glob[i+2:], ']') + 1
				if end == 0 {
					end = -1
				}
			}
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := glob[i+1 : i+1+end]
			i += end + 1
			neg := strings.HasPrefix(class, "!") || strings.HasPrefix(class, "^")
			if neg {
				class = class[1:]
			}
			b.WriteString("[")
			if neg {
				b.WriteString("^")
				if slashSensitive {
					b.WriteString("/")
				}
			}
			for _, r := range class {
				if r == '\\' || r == '[' || r == ']' || r == '^' {
					b.WriteByte('\\')
				}
				b.WriteRune(r)
			}
			b.WriteString("]")
		case '{':
			depth++
			b.WriteString("(?:")
		case '}':
			if depth > 0 {
				depth--
				b.WriteString(")")
			} else {
				b.WriteString(`\}`)
			}
		case ',':
			if depth > 0 {
				b.WriteString("|")
			} else {
				b.WriteString(",")
			}
		case '\\':
			if i+1 < len(glob) {
				i++
				b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
			} else {
				b.WriteString(`\\`)
			}
		default:
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		}
	}
	if depth > 0 {
		return nil, fmt.Errorf("glob %q: unclosed alternate group", glob)
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}
