package codingtools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gone reports whether process pid has exited: it no longer exists or is
// a zombie waiting for its new parent to reap it.
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] == "Z"
}

// waitPIDs waits until the command wrote n process ids to file.
func waitPIDs(t *testing.T, file string, n int) []int {
	t.Helper()
	for {
		data, _ := os.ReadFile(file)
		fields := strings.Fields(string(data))
		if len(fields) >= n {
			pids := make([]int, n)
			for i := range n {
				var err error
				pids[i], err = strconv.Atoi(fields[i])
				require.NoError(t, err)
			}
			return pids
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A command that starts a background process and a foreground one: both
// must be gone when the call returns.
const treeCommand = "sleep 300 & echo $! >> pids; sh -c 'echo $$ >> pids; sleep 300'; echo never"

func TestBashAbortKillsProcessGroup(t *testing.T) {
	dir := t.TempDir()
	tools := AllTools(dir, &Options{TempDir: t.TempDir()})
	ctx, cancel := context.WithCancel(context.Background())
	type outcome struct {
		res agentcore.ToolResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := call(t, ctx, tools, "bash", map[string]any{"command": "echo started; " + treeCommand})
		done <- outcome{res, err}
	}()
	pids := waitPIDs(t, filepath.Join(dir, "pids"), 2)
	cancel()
	got := <-done
	require.EqualError(t, got.err, "started\n\n\nCommand aborted")
	for _, pid := range pids {
		assert.Eventually(t, func() bool { return gone(pid) }, 10*time.Second, 10*time.Millisecond, "process %d left behind", pid)
	}
}

func TestBashTimeoutKillsProcessGroup(t *testing.T) {
	dir := t.TempDir()
	tools := AllTools(dir, nil)
	_, err := call(t, context.Background(), tools, "bash", map[string]any{"command": treeCommand, "timeout": 0.5})
	require.EqualError(t, err, "Command timed out after 0.5 seconds")
	for _, pid := range waitPIDs(t, filepath.Join(dir, "pids"), 2) {
		assert.Eventually(t, func() bool { return gone(pid) }, 10*time.Second, 10*time.Millisecond, "process %d left behind", pid)
	}
}

func TestBashTimeoutAfterShellExited(t *testing.T) {
	// Ticks every 50 ms keep the output going past a grace of a second,
	// however busy the machine.
	defer func(g time.Duration) { exitGrace = g }(exitGrace)
	exitGrace = time.Second
	dir := t.TempDir()
	_, err := call(t, context.Background(), AllTools(dir, nil), "bash",
		map[string]any{"command": "(while true; do echo tick; sleep 0.05; done) & exit 4", "timeout": 1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Command timed out after 1 seconds. The shell exited with code 4 after ")
	assert.Contains(t, err.Error(), "but background processes it started kept writing output until the timeout.")
}

func TestBashBackgroundProcessDoesNotHoldTheCall(t *testing.T) {
	dir := t.TempDir()
	res, err := call(t, context.Background(), AllTools(dir, nil), "bash", map[string]any{"command": "sleep 2 & echo $! > pid; echo done"})
	require.NoError(t, err)
	assert.Equal(t, "done\n", res.Text())
	pid := waitPIDs(t, filepath.Join(dir, "pid"), 1)[0]
	syscall.Kill(pid, syscall.SIGKILL)
}

func TestBashUpdatesAndPrefix(t *testing.T) {
	dir := t.TempDir()
	tool, ok := Tool("bash", dir, &Options{CommandPrefix: "X=prefixed", Env: []string{"Y=env"}})
	require.True(t, ok)
	var mu sync.Mutex
	var updates []agentcore.ToolResult
	res, err := tool.Execute(context.Background(), "id", []byte(`{"command":"echo $X $Y"}`), func(r agentcore.ToolResult) {
		mu.Lock()
		updates = append(updates, r)
		mu.Unlock()
	})
	require.NoError(t, err)
	assert.Equal(t, "prefixed env\n", res.Text())
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, updates)
	assert.Empty(t, updates[0].Content, "the first update is empty, as pi's")
	assert.Equal(t, "prefixed env\n", updates[len(updates)-1].Text())
}

func TestBashMissingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gone")
	_, err := call(t, context.Background(), AllTools(dir, nil), "bash", map[string]any{"command": "true"})
	require.EqualError(t, err, "Working directory does not exist: "+dir+"\nCannot execute bash commands.")
}
