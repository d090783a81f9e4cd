package partialjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestArgumentsStreamReplace(t *testing.T) {
	var a ArgumentsStream
	a.Append(`{"a":`)
	delta, continued, args := a.Replace(`{"a":1}`)
	assert.Equal(t, "1}", delta)
	assert.True(t, continued)
	assert.JSONEq(t, `{"a":1}`, string(args))

	delta, continued, args = a.Replace(`{"a":1}`)
	assert.Equal(t, "", delta)
	assert.True(t, continued)
	assert.JSONEq(t, `{"a":1}`, string(args))

	delta, continued, args = a.Replace(`{"b":2}`)
	assert.Equal(t, "", delta)
	assert.False(t, continued)
	assert.JSONEq(t, `{"b":2}`, string(args))
	assert.Equal(t, `{"b":2}`, a.Text())
}
