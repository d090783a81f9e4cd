package retryafter_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore/internal/retryafter"
)

func TestParse(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{"milliseconds first", map[string]string{"Retry-After-Ms": "250", "Retry-After": "7"}, 250 * time.Millisecond},
		{"http date", map[string]string{"Retry-After": "Thu, 03 Dec 2026 10:00:30 GMT"}, 30 * time.Second},
		{"date in the past", map[string]string{"Retry-After": "Thu, 03 Dec 2026 09:00:00 GMT"}, 0},
		{"negative", map[string]string{"Retry-After": "-3"}, 0},
		{"garbage", map[string]string{"Retry-After": "soon", "Retry-After-Ms": "x"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			assert.Equal(t, tt.want, retryafter.Parse(h, now))
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"7", "1.5", "Thu, 03 Dec 2026 10:00:30 GMT", "", "-1", "1e308", "NaN"} {
		f.Add(s, s)
	}
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, after, ms string) {
		h := http.Header{"Retry-After": {after}, "Retry-After-Ms": {ms}}
		if d := retryafter.Parse(h, now); d < 0 {
			t.Fatalf("negative delay %v for %q, %q", d, after, ms)
		}
	})
}
