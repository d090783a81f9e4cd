package modelflag

import (
	"bytes"
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

func TestParse(t *testing.T) {
	newFlags := func() (*flag.FlagSet, *Flags, *bytes.Buffer) {
		var out bytes.Buffer
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(&out)
		return fs, Register(fs, "x [-model PROVIDER/ID]", "  THINKING     the thinking level\n"), &out
	}
	t.Run("help", func(t *testing.T) {
		fs, _, out := newFlags()
		help, err := Parse(fs, []string{"-h"})
		require.NoError(t, err)
		assert.True(t, help)
		for _, s := range []string{"Usage: x [-model PROVIDER/ID]", "-model", "-base-url", "CHAT_MODEL", "BASE_URL", "ANTHROPIC_API_KEY", "THINKING"} {
			assert.Contains(t, out.String(), s)
		}
	})
	t.Run("flags stand in for the environment", func(t *testing.T) {
		fs, f, _ := newFlags()
		help, err := Parse(fs, []string{"-model", "ollama/qwen3", "-base-url", "http://localhost:11434/v1"})
		require.NoError(t, err)
		require.False(t, help)
		env := f.Getenv(func(k string) string { return "env:" + k })
		assert.Equal(t, "ollama/qwen3", env(ModelEnv))
		assert.Equal(t, "http://localhost:11434/v1", env(BaseURLEnv))
		assert.Equal(t, "env:OPENAI_API_KEY", env("OPENAI_API_KEY"))
		m, ok, err := Lookup(env)
		require.NoError(t, err)
		assert.True(t, ok)
		assert.Equal(t, "qwen3", m.ID)
		assert.Equal(t, "http://localhost:11434/v1", m.BaseURL)
	})
	t.Run("no model", func(t *testing.T) {
		_, ok, err := Lookup(func(string) string { return "" })
		assert.NoError(t, err)
		assert.False(t, ok)
	})
	t.Run("bad flag", func(t *testing.T) {
		fs, _, _ := newFlags()
		_, err := Parse(fs, []string{"-nope"})
		assert.Error(t, err)
	})
}

func TestUsage(t *testing.T) {
	assert.Equal(t, "", Usage(agentcore.Usage{}))
	assert.Equal(t, "12 tokens in, 5 out", Usage(agentcore.Usage{Input: 10, CacheRead: 2, Output: 5}), "no prices: no cost, the tokens still")
	assert.Equal(t, "12 tokens in, 5 out: $0.000081", Usage(agentcore.Usage{Input: 12, Output: 5, Cost: agentcore.Cost{Total: 0.000081}}))
}

func TestErrorText(t *testing.T) {
	assert.Equal(t, "Connection error: dial tcp 127.0.0.1:9: connect: connection refused",
		ErrorText(&agentcore.AssistantMessage{ErrorMessage: "Connection error.: dial tcp 127.0.0.1:9: connect: connection refused"}))
	assert.Equal(t, "429 rate limited", ErrorText(&agentcore.AssistantMessage{ErrorMessage: "429 rate limited"}))
}
