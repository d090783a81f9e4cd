package models

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkFirstLookup measures what the first lookup of a program pays:
// reading the embedded catalog (budget: 20 ms).
func BenchmarkFirstLookup(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		c, err := parseCatalog(catalogData)
		require.NoError(b, err)
		require.Len(b, c.providers, 43)
	}
}

// BenchmarkLookup measures a lookup once the catalog is read (budget:
// 1 µs), for a model with every kind of field.
func BenchmarkLookup(b *testing.B) {
	_, ok := Lookup("anthropic", "claude-fable-5")
	require.True(b, ok)
	b.ReportAllocs()
	for b.Loop() {
		Lookup("anthropic", "claude-fable-5")
	}
}

// BenchmarkLookupPlain measures a lookup of a model with few fields.
func BenchmarkLookupPlain(b *testing.B) {
	_, ok := Lookup("groq", "llama-3.1-8b-instant")
	require.True(b, ok)
	b.ReportAllocs()
	for b.Loop() {
		Lookup("groq", "llama-3.1-8b-instant")
	}
}
