package agentcore

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDiffTools(t *testing.T) {
	decl := func(name, params string) ToolDeclaration {
		return ToolDeclaration{Name: name, Parameters: json.RawMessage(params)}
	}
	tests := []struct {
		name                   string
		prev, cur              []ToolDeclaration
		wantAdded, wantRemoved []string
	}{
		{"same", []ToolDeclaration{decl("a", `{"type":"object"}`)}, []ToolDeclaration{decl("a", `{ "type" : "object" }`)}, nil, nil},
		{"added and removed", []ToolDeclaration{decl("a", `{}`)}, []ToolDeclaration{decl("b", `{}`)}, []string{"b"}, []string{"a"}},
		{"changed is removal plus addition", []ToolDeclaration{decl("a", `{"x":1}`)}, []ToolDeclaration{decl("a", `{"x":2}`)}, []string{"a"}, []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := diffTools(tt.prev, tt.cur)
			var added, removed []string
			for _, d := range c.Added {
				added = append(added, d.Name)
			}
			for _, r := range c.Removed {
				removed = append(removed, r.Name)
			}
			assert.Equal(t, tt.wantAdded, added)
			assert.Equal(t, tt.wantRemoved, removed)
		})
	}
}
