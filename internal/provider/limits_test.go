package provider

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
)

func TestBudget(t *testing.T) {
	b := NewBudget(10)
	assert.True(t, b.Take(4))
	assert.True(t, b.Take(6))
	assert.NoError(t, b.Err())
	assert.False(t, b.Take(1), "past the cap")
	assert.False(t, b.Take(0), "once over, always over")
	assert.ErrorIs(t, b.Err(), agentcore.ErrResponseTooLarge)
	assert.Equal(t, "Response too large: more than 10 bytes of content", b.Err().Error())
	assert.True(t, IsLimit(b.Err()))

	b = NewBudget(0)
	assert.True(t, b.Take(agentcore.DefaultMaxResponseBytes))
	assert.False(t, b.Take(1))

	for _, b := range []*Budget{NewBudget(-1), nil} {
		assert.True(t, b.Take(1<<40))
		assert.NoError(t, b.Err())
	}
	assert.False(t, IsLimit(errors.New("other")))
}
