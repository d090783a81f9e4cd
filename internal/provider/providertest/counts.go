package providertest

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// countCases are the token counts a server may report out of range, as
// JSON, and the count every provider makes of each: the one
// clamp (internal/limit's Count), whatever the provider.
var countCases = []struct {
	name, count string
	want        int64
}{
	{name: "in range", count: "12", want: 12},
	{name: "fraction", count: "12.7", want: 12},
	{name: "negative", count: "-5", want: 0},
	{name: "beyond int64", count: "99999999999999999999", want: math.MaxInt64},
	{name: "beyond int64 in float form", count: "1e300", want: math.MaxInt64},
	{name: "beyond float64", count: "1e400", want: math.MaxInt64}, // JavaScript's Infinity
	{name: "beyond float64, negative", count: "-1e400", want: 0},
}

// Counts is the one table of out-of-range token counts every provider
// is checked against: for each count, body(count) is a response that
// ends well and reports count as every token count of its usage, and
// output reads the count the provider made of it from the final
// message's usage. The response must end as it would with an ordinary
// count, and output must be the clamped count.
func (target Target) Counts(t *testing.T, body func(count string) string, output func(agentcore.Usage) int64) {
	for _, c := range countCases {
		t.Run(c.name, func(t *testing.T) {
			srv := ServeBody(t, 200, "text/event-stream", nil, []byte(body(c.count)))
			_, final := target.Run(t, t.Context(), target.New(srv.URL, srv.Client()), nil)
			require.Contains(t, []agentcore.StopReason{agentcore.StopStop, agentcore.StopToolUse}, final.StopReason, final.ErrorMessage)
			assert.Equal(t, c.want, output(final.Usage), "%+v", final.Usage)
			assert.GreaterOrEqual(t, final.Usage.Cost.Total, 0.0)
		})
	}
}
