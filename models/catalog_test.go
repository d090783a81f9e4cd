package models_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/internal/gzlines"
	"github.com/pi-go/agentcore/models"
)

// TestCatalogMatchesReference finds every chat model pi-ai 1.6.0's own
// code lists (testdata/catalog.pi.jsonl.gz, written by
// testdata/catalog.mjs) by Lookup, equal to pi-ai's to the byte: every
// field, written in agentcore.Model's order.
func TestCatalogMatchesReference(t *testing.T) {
	var head struct {
		Providers []string `json:"providers"`
		Models    int      `json:"models"`
	}
	var order []string
	n := 0
	gzlines.Each(t, "testdata/catalog.pi.jsonl.gz", func(line []byte) {
		if head.Providers == nil {
			require.NoError(t, json.Unmarshal(line, &head))
			return
		}
		var key struct{ Provider, ID string }
		require.NoError(t, json.Unmarshal(line, &key))
		order = append(order, key.Provider+"/"+key.ID)
		m, ok := models.Lookup(key.Provider, key.ID)
		if !assert.True(t, ok, "%s/%s", key.Provider, key.ID) {
			return
		}
		got, err := json.Marshal(m)
		require.NoError(t, err)
		assert.Equal(t, string(line), string(got))
		n++
	})
	assert.Equal(t, head.Providers, models.Providers())
	assert.Equal(t, head.Models, n)
	assert.Equal(t, 1698, n)

	var listed []string
	for _, p := range models.Providers() {
		for _, m := range models.List(p) {
			listed = append(listed, m.Provider+"/"+m.ID)
		}
	}
	assert.Equal(t, order, listed, "List gives every model in pi-ai's order")
}
