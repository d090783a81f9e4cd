package models

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCatalogErrors(t *testing.T) {
	model := "M\tid\tname" + strings.Repeat("\t", len(columns)) + "\t1\t2"
	tests := []struct {
		name, data, want string
	}{
		{"model before a provider", model, "a model before any provider"},
		{"unknown line", "X\tfoo", `unknown line kind "X"`},
		{"unknown column", "T\tnope\t1", `unknown column "nope"`},
		{"bad table value", "T\tcost\t{", "cost"},
		{"missing table value", "P\tp\nM\tid\tname\t7" + strings.Repeat("\t", len(columns)-1) + "\t1\t2", "no such table value"},
		{"short line", "P\tp\nM\tid\tname", "fields, want"},
		{"bad number", "P\tp\nM\tid\tname" + strings.Repeat("\t", len(columns)) + "\tx\t2", "contextWindow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseCatalog(tt.data)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	c, err := parseCatalog("# comment\nP\tp\n" + model + "\n")
	require.NoError(t, err)
	assert.Equal(t, []string{"p"}, c.providers)
	assert.Equal(t, 1, c.models["p"].list[0].ContextWindow)
}

func FuzzParseCatalog(f *testing.F) {
	f.Add(catalogData[:2000])
	f.Add("P\tp\nM\tid\tname" + strings.Repeat("\t", len(columns)) + "\t1\t2\n")
	f.Fuzz(func(t *testing.T, data string) {
		c, err := parseCatalog(data)
		if err == nil {
			require.NotNil(t, c)
		}
	})
}
