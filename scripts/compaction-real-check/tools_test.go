package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestByteRangeSet(t *testing.T) {
	tests := []struct {
		name, in string
		want     byteRange
		err      bool
	}{
		{name: "range", in: "1000-3000", want: byteRange{1000, 3000}},
		{name: "one size", in: "2048", want: byteRange{2048, 2048}},
		{name: "reversed", in: "3000-1000", err: true},
		{name: "too small", in: "10-20", err: true},
		{name: "not a number", in: "1k-3k", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r byteRange
			err := r.Set(tt.in)
			if tt.err {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, r)
		})
	}
}

func TestToolsSizedResults(t *testing.T) {
	size := byteRange{1000, 3000}
	var calls toolCalls
	first, second := tools(size, &calls), tools(size, &toolCalls{})
	args := json.RawMessage(`{"path":"plan.txt","text":"a note"}`)
	for call := range 40 {
		tool := call % 2 // read, then write
		a, err := first[tool].Execute(context.Background(), "id", args, nil)
		require.NoError(t, err)
		b, err := second[tool].Execute(context.Background(), "id", args, nil)
		require.NoError(t, err)
		text := a.Text()
		assert.GreaterOrEqual(t, len(text), size.min, "call %d", call)
		assert.LessOrEqual(t, len(text), size.max, "call %d", call)
		assert.Equal(t, text, b.Text(), "call %d: the same text in every run", call)
	}
	assert.Equal(t, 40, calls.n)
	assert.GreaterOrEqual(t, calls.smallest, size.min)
	assert.LessOrEqual(t, calls.largest, size.max)
	assert.Less(t, calls.smallest, calls.largest, "the sizes vary")
}

func TestToolsDefaultSizes(t *testing.T) {
	res, err := tools(byteRange{}, &toolCalls{})[1].Execute(context.Background(), "id", json.RawMessage(`{"path":"a.txt","text":"abc"}`), nil)
	require.NoError(t, err)
	assert.Equal(t, "wrote 3 characters to a.txt", res.Text())
}
