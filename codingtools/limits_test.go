package codingtools

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tiny bounds: the machine running the tests is shared.
const (
	bombProcesses = 64
	bombMemory    = 64 << 20
	bombTimeout   = 10 * time.Second
)

// requireBound skips the test unless lim can be established here; the
// bombs run only after it.
func requireBound(t *testing.T, lim *ShellLimits) {
	t.Helper()
	b, err := lim.setup()
	if errors.Is(err, ErrUnbounded) {
		t.Skipf("no bound on this machine: %v", err)
	}
	require.NoError(t, err)
	if len(b.procs) == 0 && lim.UID == 0 {
		t.Fatal("a bound without a cgroup must name a user")
	}
	b.cleanup()
	sh := &LocalShell{Limits: lim}
	code, err := sh.Exec(context.Background(), ShellCommand{Command: "exit 0", Dir: "/", Timeout: bombTimeout})
	require.NoError(t, err)
	if code == boundExit {
		t.Skip("the command cannot join its cgroup on this machine")
	}
	require.Zero(t, code)
}

// processCount is the number of processes on the machine.
func processCount() int {
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		if c := e.Name()[0]; c >= '0' && c <= '9' {
			n++
		}
	}
	return n
}

// watchProcesses samples the machine's process count until stop is
// called, which returns the largest count seen.
func watchProcesses() (stop func() int) {
	var peak atomic.Int64
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !done.Load() {
			if n := int64(processCount()); n > peak.Load() {
				peak.Store(n)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	return func() int { done.Store(true); wg.Wait(); return int(peak.Load()) }
}

// runBomb runs command under lim and checks that the machine's process
// count stayed near where it was and came back after.
func runBomb(t *testing.T, lim *ShellLimits, dir, command string) (int, error, string) {
	t.Helper()
	requireBound(t, lim)
	before := processCount()
	stop := watchProcesses()
	var out bytes.Buffer
	sh := &LocalShell{Limits: lim}
	code, err := sh.Exec(context.Background(), ShellCommand{Command: command, Dir: dir, Timeout: bombTimeout, Output: &out})
	peak := stop()
	t.Logf("processes: %d before, %d at the peak; output %d bytes", before, peak, out.Len())
	// Other work on the machine moves the count a little; a bomb moves it
	// by thousands.
	assert.Less(t, peak, before+bombProcesses+200, "the bomb stayed bounded")
	require.Eventually(t, func() bool { return processCount() < before+100 }, 10*time.Second, 50*time.Millisecond, "the bomb's processes are gone")
	return code, err, out.String()
}

const forkBomb = `b() { b | b & }; b; sleep 1; echo forked`

func TestLimitsForkBomb(t *testing.T) {
	lim := &ShellLimits{Processes: bombProcesses, Memory: bombMemory}
	_, err, _ := runBomb(t, lim, t.TempDir(), forkBomb)
	// The shell exits after a second; its bombs keep writing fork errors
	// until the timeout, or stop when the grace period closes their pipe:
	// either way they are killed with the cgroup.
	if err != nil {
		require.ErrorIs(t, err, ErrTimeout)
	}
}

func TestLimitsMemoryBomb(t *testing.T) {
	lim := &ShellLimits{Processes: bombProcesses, Memory: bombMemory}
	// tail keeps a line without newline whole: it grows until killed.
	code, err, out := runBomb(t, lim, t.TempDir(), `head -c 500000000 /dev/zero | tail -n 1 >/dev/null; echo "tail: $?"`)
	require.NoError(t, err)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "tail: 137", "tail was killed at the memory bound")
}

func TestLimitsNonRootUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("running as another user needs root")
	}
	lim := &ShellLimits{Processes: bombProcesses, Memory: bombMemory, UID: 65534, GID: 65534, noCgroup: true}
	code, err, out := runBomb(t, lim, "/", `head -c 500000000 /dev/zero | tail -n 1 >/dev/null; echo "tail: $?"; ulimit -u -v`)
	require.NoError(t, err)
	assert.Equal(t, 0, code)
	assert.NotContains(t, out, "tail: 0", "tail failed at the address-space bound")
	assert.Contains(t, out, "(-u) 64\n")
	assert.Contains(t, out, "(kbytes, -v) 65536\n")
	_, err, _ = runBomb(t, lim, "/", forkBomb)
	if err != nil {
		require.ErrorIs(t, err, ErrTimeout)
	}
}

func TestLimitsUnbounded(t *testing.T) {
	sh := &LocalShell{Limits: &ShellLimits{Processes: 10, noCgroup: true}}
	dir := t.TempDir()
	_, err := sh.Exec(context.Background(), ShellCommand{Command: "touch ran", Dir: dir})
	require.ErrorIs(t, err, ErrUnbounded)
	_, err = os.Stat(dir + "/ran")
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing ran")
}

func TestLimitsOutputAndCPU(t *testing.T) {
	dir := t.TempDir()
	tools := AllTools(dir, &Options{TempDir: t.TempDir(), Shell: &LocalShell{Limits: &ShellLimits{Output: 1 << 20}}})
	_, err := call(t, context.Background(), tools, "bash", map[string]any{"command": "yes", "timeout": 10})
	require.Error(t, err)
	assert.True(t, strings.HasSuffix(err.Error(), "\n\nCommand killed: output exceeded 1048576 bytes"), err.Error())

	sh := &LocalShell{Limits: &ShellLimits{CPUTime: time.Second}}
	code, err := sh.Exec(context.Background(), ShellCommand{Command: "while :; do :; done", Dir: dir, Timeout: bombTimeout})
	require.NoError(t, err)
	assert.Contains(t, []int{128 + 9, 128 + 24}, code, "SIGXCPU or SIGKILL at the CPU bound")
}

func TestLimitsAbortKillsEscapedProcesses(t *testing.T) {
	lim := &ShellLimits{Processes: bombProcesses}
	requireBound(t, lim)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		sh := &LocalShell{Limits: lim}
		// setsid leaves the process group that abort kills; the cgroup
		// still holds it.
		_, err := sh.Exec(ctx, ShellCommand{Command: "setsid sleep 300 & echo $! > pids; sleep 300", Dir: dir, Timeout: bombTimeout})
		done <- err
	}()
	pid := waitPIDs(t, dir+"/pids", 1)[0]
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	assert.Eventually(t, func() bool { return gone(pid) }, 5*time.Second, 10*time.Millisecond, "the escaped process was killed with the cgroup")
}

func TestLimitsCPURate(t *testing.T) {
	lim := &ShellLimits{CPUs: 0.2}
	requireBound(t, lim)
	sh := &LocalShell{Limits: lim}
	var out bytes.Buffer
	// Two busy loops for two seconds: unbound, up to four CPU seconds.
	code, err := sh.Exec(context.Background(), ShellCommand{
		Command: `for i in 1 2; do timeout 2 sh -c 'while :; do :; done' & done; wait; times`,
		Dir:     t.TempDir(), Timeout: bombTimeout, Output: &out,
	})
	require.NoError(t, err)
	require.Equal(t, 0, code)
	// times prints the shell's then its children's user and system time.
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2, out.String())
	var used time.Duration
	for _, f := range strings.Fields(lines[1]) {
		m, s, ok := strings.Cut(strings.TrimSuffix(f, "s"), "m")
		require.True(t, ok, f)
		d, err := time.ParseDuration(m + "m" + s + "s")
		require.NoError(t, err)
		used += d
	}
	t.Logf("CPU time of the loops: %v", used)
	assert.Less(t, used, 1200*time.Millisecond, "0.2 CPUs over about 2 s, with room for the period's rounding")
}
