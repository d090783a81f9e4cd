package models_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/gzlines"
	"github.com/pi-go/agentcore/models"
)

// TestThinkingLevelsMatchReference compares the supported levels of every
// catalog model, and how each level and an unknown one clamp, with pi-ai
// 1.6.0's (testdata/thinking.pi.jsonl.gz, written by testdata/thinking.mjs).
func TestThinkingLevelsMatchReference(t *testing.T) {
	n := 0
	gzlines.Each(t, "testdata/thinking.pi.jsonl.gz", func(line []byte) {
		var c struct {
			Provider  string                                              `json:"provider"`
			ID        string                                              `json:"id"`
			Supported []agentcore.ThinkingLevel                           `json:"supported"`
			Clamp     map[agentcore.ThinkingLevel]agentcore.ThinkingLevel `json:"clamp"`
		}
		require.NoError(t, json.Unmarshal(line, &c))
		m, ok := models.Lookup(c.Provider, c.ID)
		require.True(t, ok, "%s/%s", c.Provider, c.ID)
		assert.Equal(t, c.Supported, models.SupportedThinkingLevels(m), "%s/%s", c.Provider, c.ID)
		for level, want := range c.Clamp {
			assert.Equal(t, want, models.ClampThinkingLevel(m, level), "%s/%s %s", c.Provider, c.ID, level)
		}
		n++
	})
	assert.Equal(t, 1698, n)
}

func TestClampThinkingLevelEmptyIsOff(t *testing.T) {
	m := agentcore.Model{Reasoning: true}
	assert.Equal(t, agentcore.ThinkingOff, models.ClampThinkingLevel(m, ""))
	m.ThinkingLevelMap = agentcore.ThinkingLevelMap{agentcore.ThinkingOff: nil}
	assert.Equal(t, agentcore.ThinkingMinimal, models.ClampThinkingLevel(m, ""))
}

func ExampleClampThinkingLevel() {
	high := "high"
	model := agentcore.Model{
		Reasoning:        true,
		ThinkingLevelMap: agentcore.ThinkingLevelMap{agentcore.ThinkingOff: nil, agentcore.ThinkingXHigh: &high},
	}
	fmt.Println(models.SupportedThinkingLevels(model))
	fmt.Println(models.ClampThinkingLevel(model, agentcore.ThinkingOff), models.ClampThinkingLevel(model, agentcore.ThinkingMax))
	// Output:
	// [minimal low medium high xhigh]
	// minimal xhigh
}
