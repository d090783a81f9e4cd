// Package retryafter reads the delay an HTTP reply asks a client to wait
// before retrying, for the stream functions of the module (the providers
// and the proxy client).
package retryafter

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Parse returns the delay a provider's reply asks for: its
// retry-after-ms header (milliseconds), else Retry-After (seconds, or an
// HTTP date, measured from now); 0 when neither holds a positive delay.
func Parse(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			return delay(ms, time.Millisecond)
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return delay(s, time.Second)
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// delay is n units as a duration: 0 when not positive, the longest
// duration when too long for one.
func delay(n float64, unit time.Duration) time.Duration {
	switch d := n * float64(unit); {
	case !(d > 0):
		return 0
	case d >= math.MaxInt64:
		return math.MaxInt64
	default:
		return time.Duration(d)
	}
}
