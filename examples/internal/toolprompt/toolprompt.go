// Package toolprompt writes the system prompt of the example coding
// agents: an introduction, then pi's coding tools with their snippets and
// guidelines (package codingtools).
package toolprompt

import (
	"fmt"
	"strings"

	"github.com/pi-go/agentcore/codingtools"
)

// For returns intro, then a "Tools:" list of every coding tool with its
// snippet, then a "Guidelines:" list of their guidelines.
func For(intro string) string {
	var b strings.Builder
	b.WriteString(intro)
	b.WriteString("\n\nTools:\n")
	var guidelines []string
	for _, name := range codingtools.ToolNames() {
		p, _ := codingtools.Prompt(name)
		fmt.Fprintf(&b, "- %s: %s\n", name, p.Snippet)
		guidelines = append(guidelines, p.Guidelines...)
	}
	b.WriteString("\nGuidelines:\n")
	for _, g := range guidelines {
		fmt.Fprintf(&b, "- %s\n", g)
	}
	return b.String()
}
