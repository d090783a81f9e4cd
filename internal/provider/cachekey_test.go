package provider

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPromptCacheKey(t *testing.T) {
	assert.Equal(t, "", PromptCacheKey(""))
	assert.Equal(t, "short", PromptCacheKey("short"))
	assert.Equal(t, strings.Repeat("é", 64), PromptCacheKey(strings.Repeat("é", 70)))
	assert.Equal(t, strings.Repeat("x", 64), PromptCacheKey(strings.Repeat("x", 64)))
}
