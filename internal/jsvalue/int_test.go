package jsvalue

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/internal/jsonscan"
)

// intCases are the numbers every reader of a JavaScript integer must
// agree on: encoding/json through [Int] and the one-pass decoders through
// [jsonscan.Int64].
var intCases = []struct {
	lit  string
	want int64
}{
	{"0", 0},
	{"-0", 0},
	{"-0.0", 0},
	{"7", 7},
	{"-7", -7},
	{"1.5", 1},
	{"-1.5", -1},
	{"0.999", 0},
	{"1e3", 1000},
	{"1E+3", 1000},
	{"1e21", math.MaxInt64},
	{"-1e21", math.MinInt64},
	{"1e400", math.MaxInt64},
	{"-1e400", math.MinInt64},
	{"1e-400", 0},
	{"999999999999999999", 999999999999999999},
	{"-999999999999999999", -999999999999999999},
	{"12345678901234567890", math.MaxInt64},
	{"-12345678901234567890", math.MinInt64},
	{"9223372036854775807", math.MaxInt64},
	{"9223372036854775808", math.MaxInt64},
	{"-9223372036854775808", math.MinInt64},
	{"-9223372036854775809", math.MinInt64},
	{"9223372036854775807.5", math.MaxInt64},
	{"1700000000000.9", 1700000000000},
}

func TestInt(t *testing.T) {
	for _, tt := range intCases {
		t.Run(tt.lit, func(t *testing.T) {
			var n Int
			require.NoError(t, json.Unmarshal([]byte(tt.lit), &n))
			assert.Equal(t, tt.want, int64(n), "encoding/json")

			got, ok := jsonscan.Int64([]byte(tt.lit))
			assert.True(t, ok)
			assert.Equal(t, tt.want, got, "jsonscan.Int64")

			s := jsonscan.Scanner{}
			s.Reset([]byte(tt.lit))
			assert.Equal(t, tt.want, s.Int(), "Scanner.Int")
			assert.False(t, s.Failed())
		})
	}
}

func TestIntNotNumber(t *testing.T) {
	for _, lit := range []string{`"1"`, `true`, `{}`, `[1]`, `"NaN"`} {
		t.Run(lit, func(t *testing.T) {
			n := Int(5)
			err := json.Unmarshal([]byte(lit), &n)
			assert.Error(t, err)
			assert.Equal(t, Int(5), n, "left unchanged")
			assert.ErrorIs(t, err, ErrNotNumber)
		})
	}
}

// null leaves the zero value of a field, and nil for an optional one, as
// the callers read an absent number.
func TestIntNull(t *testing.T) {
	var w struct {
		N Int  `json:"n"`
		P *Int `json:"p"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"n":null,"p":null}`), &w))
	assert.Equal(t, Int(0), w.N)
	assert.Nil(t, Int64Ptr(w.P))

	require.NoError(t, json.Unmarshal([]byte(`{"p":1.5}`), &w))
	assert.Equal(t, int64(1), *Int64Ptr(w.P))

	n := Int(5)
	require.NoError(t, n.UnmarshalJSON([]byte(" null ")))
	assert.Equal(t, Int(5), n)
}

// FuzzInt checks [Int] against the plain reading of a JavaScript integer:
// strconv's int64 when it fits, else the double truncated toward zero and
// clamped to the int64 range.
func FuzzInt(f *testing.F) {
	for _, tt := range intCases {
		f.Add(tt.lit)
	}
	f.Add(`"1"`)
	f.Add("01")
	f.Add("0x10")
	f.Add("Inf")
	f.Fuzz(func(t *testing.T, lit string) {
		var n Int
		err := n.UnmarshalJSON([]byte(lit))
		if !json.Valid([]byte(lit)) {
			return // encoding/json never passes such bytes
		}
		lit = strings.TrimSpace(lit)
		want, isNumber := reference(lit)
		if !isNumber {
			if lit != "null" {
				assert.Error(t, err)
			}
			return
		}
		require.NoError(t, err)
		assert.Equal(t, want, int64(n))
	})
}

func reference(lit string) (int64, bool) {
	if i, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(lit, 64)
	if ne, ok := err.(*strconv.NumError); err != nil && (!ok || ne.Err != strconv.ErrRange) {
		return 0, false
	}
	switch {
	case math.IsNaN(f):
		return 0, true
	case f >= math.MaxInt64:
		return math.MaxInt64, true
	case f <= math.MinInt64:
		return math.MinInt64, true
	}
	return int64(f), true
}
