package limit

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInflated(t *testing.T) {
	body := func(n int, uncompressed bool) *http.Response {
		return &http.Response{Body: io.NopCloser(strings.NewReader(strings.Repeat("\n", n))), Uncompressed: uncompressed}
	}
	tests := []struct {
		name         string
		size         int
		uncompressed bool
		max          int64
		text         string // the error; "" for none
	}{
		{name: "inflated within the cap", size: 100, uncompressed: true, max: 100},
		{name: "inflated past the cap", size: 101, uncompressed: true, max: 100, text: "Response too large: more than 100 bytes inflated from a compressed body"},
		{name: "inflated, no cap", size: 1000, uncompressed: true, max: -1},
		{name: "sent uncompressed", size: 1000, max: 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got bytes.Buffer
			_, err := io.Copy(&got, Inflated(body(tt.size, tt.uncompressed), tt.max))
			if tt.text == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.size, got.Len())
				return
			}
			assert.ErrorIs(t, err, ErrResponseTooLarge)
			assert.True(t, Is(err))
			assert.Equal(t, tt.text, err.Error())
			assert.Equal(t, int(tt.max), got.Len(), "the bytes within the cap are read")
		})
	}
	t.Run("default cap", func(t *testing.T) {
		n, err := io.Copy(io.Discard, Inflated(body(DefaultMaxResponseBytes+1, true), 0))
		assert.ErrorIs(t, err, ErrResponseTooLarge)
		assert.Equal(t, int64(DefaultMaxResponseBytes), n)
	})
}
