package limit

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBudget(t *testing.T) {
	b := NewBudget(10)
	assert.True(t, b.Take(4))
	assert.True(t, b.Take(6))
	assert.NoError(t, b.Err())
	assert.False(t, b.Take(1), "past the cap")
	assert.False(t, b.Take(0), "once over, always over")
	assert.ErrorIs(t, b.Err(), ErrResponseTooLarge)
	assert.Equal(t, "Response too large: more than 10 bytes of content", b.Err().Error())
	assert.True(t, Is(b.Err()))

	b = NewBudget(0)
	assert.True(t, b.Take(DefaultMaxResponseBytes))
	assert.False(t, b.Take(1))

	for _, b := range []*Budget{NewBudget(-1), nil} {
		assert.True(t, b.Take(1<<40))
		assert.NoError(t, b.Err())
	}
	assert.False(t, Is(errors.New("other")))
}

func TestDuration(t *testing.T) {
	assert.Equal(t, 5*DefaultStreamIdleTimeout, Duration(5*DefaultStreamIdleTimeout, DefaultStreamIdleTimeout))
	assert.Equal(t, DefaultStreamIdleTimeout, Duration(0, DefaultStreamIdleTimeout))
	assert.Zero(t, Duration(-1, DefaultStreamIdleTimeout))
}
