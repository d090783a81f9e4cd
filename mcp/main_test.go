package agentmcp_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	agentmcp "github.com/pi-go/agentcore/mcp"
)

// TestMain fails the package's tests if any goroutine outlives them, and
// removes the stdio server the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if serverDir != "" {
		os.RemoveAll(serverDir)
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

var (
	buildOnce  sync.Once
	serverDir  string
	serverPath string
	buildErr   error
)

// stdioServer builds testdata/server, the stdio server of the tests, once
// per test binary, and returns its path.
func stdioServer(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		serverDir, buildErr = os.MkdirTemp("", "agentmcp-server")
		if buildErr != nil {
			return
		}
		serverPath = filepath.Join(serverDir, "server")
		if runtime.GOOS == "windows" {
			serverPath += ".exe"
		}
		out, err := exec.Command("go", "build", "-o", serverPath, "./testdata/server").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("building the test server: %v\n%s", err, out)
		}
	})
	require.NoError(t, buildErr)
	return serverPath
}

// memServer serves an SDK server over in-memory transports.
type memServer struct {
	// Transport connects a new session of the server at each connection.
	Transport agentmcp.SDKTransport

	mu       sync.Mutex
	sessions []*mcp.ServerSession
	conns    []mcp.Connection
}

// inMemory serves server over in-memory transports; the test closes the
// server's sessions at its end.
func inMemory(t *testing.T, server *mcp.Server) *memServer {
	t.Helper()
	m := &memServer{}
	t.Cleanup(func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, ss := range m.sessions {
			ss.Close()
			ss.Wait()
		}
	})
	m.Transport = agentmcp.SDKTransport{New: func() (mcp.Transport, error) {
		client, srv := mcp.NewInMemoryTransports()
		ss, err := server.Connect(context.Background(), recorder{srv, m}, nil)
		if err != nil {
			return nil, err
		}
		m.mu.Lock()
		m.sessions = append(m.sessions, ss)
		m.mu.Unlock()
		return client, nil
	}}
	return m
}

// Connects returns how many connections the server had.
func (m *memServer) Connects() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sessions)
}

// Cut closes the server's side of its last connection, as a server that
// died would.
func (m *memServer) Cut() {
	m.mu.Lock()
	conn := m.conns[len(m.conns)-1]
	m.mu.Unlock()
	conn.Close()
}

// recorder is a server transport that records its connections.
type recorder struct {
	mcp.Transport
	m *memServer
}

func (r recorder) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := r.Transport.Connect(ctx)
	if err == nil {
		r.m.mu.Lock()
		r.m.conns = append(r.m.conns, conn)
		r.m.mu.Unlock()
	}
	return conn, err
}

// connect connects a Toolset to servers and closes it at the test's end.
func connect(t *testing.T, opts *agentmcp.Options, servers ...agentmcp.Server) *agentmcp.Toolset {
	t.Helper()
	ts, err := agentmcp.Connect(t.Context(), servers, opts)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, ts.Close()) })
	return ts
}
