package models_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/models"
)

func TestRegistry(t *testing.T) {
	local := agentcore.Model{ID: "qwen3-coder", Provider: "llama.cpp", API: "openai-completions", BaseURL: "http://127.0.0.1:8080/v1", ContextWindow: 32768, MaxTokens: 4096}

	t.Run("zero is empty", func(t *testing.T) {
		var r models.Registry
		assert.Empty(t, r.Providers())
		_, ok := r.Lookup("anthropic", "claude-fable-5")
		assert.False(t, ok)
		assert.Nil(t, r.List("anthropic"))
	})
	t.Run("builtin", func(t *testing.T) {
		r := models.Builtin()
		m, ok := r.Lookup("anthropic", "claude-fable-5")
		require.True(t, ok)
		assert.Equal(t, "https://api.anthropic.com", m.BaseURL)
		_, ok = r.Lookup("anthropic", "nope")
		assert.False(t, ok)
		assert.Len(t, r.Providers(), 43)
	})
	t.Run("own provider", func(t *testing.T) {
		r := models.Builtin()
		require.NoError(t, r.Add(local))
		m, ok := r.Lookup("llama.cpp", "qwen3-coder")
		require.True(t, ok)
		assert.Equal(t, local, m)
		assert.Contains(t, r.Providers(), "llama.cpp")
		_, ok = models.Lookup("llama.cpp", "qwen3-coder")
		assert.False(t, ok, "another registry is not changed")
	})
	t.Run("add replaces in place and keeps the others", func(t *testing.T) {
		r := models.Builtin()
		before := r.List("anthropic")
		changed := before[1]
		changed.BaseURL = "http://proxy.internal"
		require.NoError(t, r.Add(changed, agentcore.Model{ID: "mine", Provider: "anthropic"}))
		after := r.List("anthropic")
		require.Len(t, after, len(before)+1)
		assert.Equal(t, "http://proxy.internal", after[1].BaseURL)
		assert.Equal(t, before[0], after[0])
		assert.Equal(t, "mine", after[len(after)-1].ID)
	})
	t.Run("set provider replaces it", func(t *testing.T) {
		r := models.Builtin()
		require.NoError(t, r.SetProvider("openai", []agentcore.Model{{ID: "gpt-local"}}))
		list := r.List("openai")
		require.Len(t, list, 1)
		assert.Equal(t, "openai", list[0].Provider)
		require.NoError(t, r.SetProvider("openai", nil))
		assert.Empty(t, r.List("openai"))
		assert.Contains(t, r.Providers(), "openai")
	})
	t.Run("delete provider", func(t *testing.T) {
		r := models.Builtin()
		r.DeleteProvider("openai")
		assert.NotContains(t, r.Providers(), "openai")
		assert.Nil(t, r.List("openai"))
		require.NoError(t, r.Add(agentcore.Model{ID: "x", Provider: "openai"}))
		assert.Len(t, r.List("openai"), 1)
	})
	t.Run("invalid models change nothing", func(t *testing.T) {
		r := models.Builtin()
		assert.ErrorIs(t, r.Add(local, agentcore.Model{ID: "x"}), models.ErrInvalidModel)
		assert.ErrorIs(t, r.Add(agentcore.Model{Provider: "p"}), models.ErrInvalidModel)
		assert.ErrorIs(t, r.SetProvider("p", []agentcore.Model{{ID: "x", Provider: "q"}}), models.ErrInvalidModel)
		assert.ErrorIs(t, r.SetProvider("", nil), models.ErrInvalidModel)
		assert.NotContains(t, r.Providers(), "llama.cpp")
		assert.NotContains(t, r.Providers(), "p")
	})
	t.Run("models are copies", func(t *testing.T) {
		r := models.Builtin()
		m, _ := r.Lookup("anthropic", "claude-fable-5")
		m.Input[0] = "changed"
		m.Compat[0] = 'X'
		*m.ThinkingLevelMap[agentcore.ThinkingXHigh] = "changed"
		*m.InputLimits.Images.Resize.MaxWidth = 1
		m.Cost.Tiers = append(m.Cost.Tiers, agentcore.ModelCostTier{})
		again, _ := r.Lookup("anthropic", "claude-fable-5")
		assert.Equal(t, "text", again.Input[0])
		assert.Equal(t, byte('{'), again.Compat[0])
		assert.Equal(t, "xhigh", *again.ThinkingLevelMap[agentcore.ThinkingXHigh])
		assert.Equal(t, 2000, *again.InputLimits.Images.Resize.MaxWidth)
		assert.Empty(t, again.Cost.Tiers)

		in := local
		in.Input = []string{"text"}
		require.NoError(t, r.Add(in))
		in.Input[0] = "image"
		got, _ := r.Lookup("llama.cpp", "qwen3-coder")
		assert.Equal(t, []string{"text"}, got.Input)
	})
}

// A program adds a local server (llama.cpp, Ollama, vLLM) with its
// context window and no prices, and points a catalog provider at another
// base URL.
func ExampleRegistry() {
	r := models.Builtin()
	_ = r.Add(agentcore.Model{
		ID: "qwen3-coder", Provider: "ollama", API: "openai-completions",
		BaseURL: "http://127.0.0.1:11434/v1", Input: []string{"text"},
		ContextWindow: 32768, MaxTokens: 8192,
	})
	anthropic := r.List("anthropic")
	for i := range anthropic {
		anthropic[i].BaseURL = "https://llm-gateway.example.com/anthropic"
	}
	_ = r.SetProvider("anthropic", anthropic)

	local, _ := r.Lookup("ollama", "qwen3-coder")
	fable, _ := r.Lookup("anthropic", "claude-fable-5")
	fmt.Println(local.ContextWindow, local.Cost.Input)
	fmt.Println(fable.BaseURL, fable.Cost.Input)
	// Output:
	// 32768 0
	// https://llm-gateway.example.com/anthropic 10
}

func ExampleLookup() {
	m, ok := models.Lookup("anthropic", "claude-fable-5")
	fmt.Println(ok, m.API, m.ContextWindow, m.MaxTokens, m.Cost.Input, m.Cost.Output)
	// Output:
	// true anthropic-messages 1000000 128000 10 50
}
