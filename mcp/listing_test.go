package agentmcp_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	agentmcp "github.com/pi-go/agentcore/mcp"
)

// endless pages for ever: each page has perPage tools and a next cursor.
func endless(perPage int) func(cursor string) []byte {
	return func(cursor string) []byte {
		n, _ := strconv.Atoi(cursor)
		return toolsPage(n*perPage, perPage, strconv.Itoa(n+1))
	}
}

// TestListingIsBounded connects to servers whose listing never ends or is
// too large: Connect fails at the bound with an error naming the server.
func TestListingIsBounded(t *testing.T) {
	for _, tc := range []struct {
		name string
		page func(cursor string) []byte
		opts *agentmcp.Options
		want string // "" for success
	}{
		{name: "endless pages of tools", page: endless(1000),
			want: `agentmcp: server "s": listing tools: agentmcp: tool list too large: more than 10000 tools (Options.MaxTools)`},
		{name: "endless empty pages", page: endless(0), opts: &agentmcp.Options{MaxTools: 5},
			want: `agentmcp: server "s": listing tools: agentmcp: tool list too large: more than 5 pages (Options.MaxTools)`},
		{name: "too many bytes", page: endless(100), opts: &agentmcp.Options{MaxListBytes: 50_000},
			want: `agentmcp: server "s": listing tools: agentmcp: tool list too large: tool declarations over 50000 bytes (Options.MaxListBytes)`},
		{name: "at the bound", opts: &agentmcp.Options{MaxTools: 3000}, page: func(cursor string) []byte {
			if cursor == "2" {
				return toolsPage(2000, 1000, "")
			}
			return endless(1000)(cursor)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := agentmcp.Connect(t.Context(), []agentmcp.Server{{Name: "s", Transport: serveRaw(t, tc.page)}}, tc.opts)
			if tc.want == "" {
				require.NoError(t, err)
				assert.Len(t, ts.Tools(), 3000)
				require.NoError(t, ts.Close())
				return
			}
			require.ErrorIs(t, err, agentmcp.ErrListTooLarge)
			assert.EqualError(t, err, tc.want)
		})
	}
}
