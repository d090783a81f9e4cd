package agentmcp_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	agentmcp "github.com/pi-go/agentcore/mcp"
)

// rawServer is an MCP server written by hand over an in-memory pipe: it
// answers initialize, and tools/list with the result page returns for a
// cursor, byte for byte, so that a test controls the listing exactly and a
// benchmark measures the client alone.
type rawServer struct {
	// page returns the JSON of the tools/list result for cursor.
	page func(cursor string) []byte

	wg sync.WaitGroup
}

// serveRaw returns the transport of a rawServer answering with page; the
// test waits for the server's goroutines at its end.
func serveRaw(tb testing.TB, page func(cursor string) []byte) agentmcp.SDKTransport {
	r := &rawServer{page: page}
	tb.Cleanup(r.wg.Wait)
	return agentmcp.SDKTransport{New: func() (mcp.Transport, error) {
		client, srv := net.Pipe()
		r.wg.Go(func() { r.serve(srv) })
		return &mcp.IOTransport{Reader: client, Writer: client}, nil
	}}
}

// serve answers the requests read from conn until the client closes it.
func (r *rawServer) serve(conn net.Conn) {
	defer conn.Close()
	in := bufio.NewScanner(conn)
	in.Buffer(nil, 1<<20)
	w := bufio.NewWriter(conn)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Cursor          string `json:"cursor"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue // a notification
		}
		var result []byte
		switch req.Method {
		case "initialize":
			result = fmt.Appendf(nil, `{"protocolVersion":%q,"capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"raw","version":"v1"}}`,
				req.Params.ProtocolVersion)
		case "tools/list":
			result = r.page(req.Params.Cursor)
		default:
			result = []byte(`{}`)
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":`, req.ID)
		w.Write(result)
		w.WriteString("}\n")
		if w.Flush() != nil {
			return
		}
	}
}

// toolsPage returns a tools/list result of n tools numbered from first,
// each about 110 bytes, with next as its next cursor ("" for none).
func toolsPage(first, n int, next string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool%07d","description":"Tool %d.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}`,
			first+i, first+i)
	}
	b.WriteString(`]`)
	if next != "" {
		fmt.Fprintf(&b, `,"nextCursor":%q`, next)
	}
	b.WriteString(`}`)
	return b.Bytes()
}
