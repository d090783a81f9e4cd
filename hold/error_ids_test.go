package hold_test

import (
	"strings"
	"testing"

	"github.com/pi-go/agentcore/hold"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorsCutIDs: a decision's or a state's call ID, a person's or a
// client's input, is cut in the errors that name it.
func TestErrorsCutIDs(t *testing.T) {
	huge := strings.Repeat("i", 10<<20)
	g := hold.New(hold.Options{})
	for _, err := range []error{
		g.Decide(hold.Approve{ID: huge}),
		g.Restore(hold.State{Calls: []hold.Call{{ID: huge, Tool: "t"}}}),
		g.Restore(hold.State{Calls: []hold.Call{{ID: huge, Tool: "t", Arguments: []byte("{}")}, {ID: huge, Tool: "t", Arguments: []byte("{}")}}}),
	} {
		require.Error(t, err)
		assert.Less(t, len(err.Error()), 1000)
		assert.Contains(t, err.Error(), "(10485760 bytes)")
	}
}
