package codingtools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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
	bombCPUs      = 0.5
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
	if len(b.dirs) == 0 && lim.UID == 0 {
		t.Fatal("a bound without a cgroup must name a user")
	}
	b.cleanup()
	sh := &LocalShell{Limits: lim}
	code, err := sh.Exec(context.Background(), ShellCommand{Command: "exit 0", Dir: "/", Timeout: bombTimeout})
	if errors.Is(err, ErrUnbounded) {
		t.Skipf("the command cannot join its cgroup on this machine: %v", err)
	}
	require.NoError(t, err)
	require.Zero(t, code)
}

// usage is what one bounded command used, read from its own cgroups
// only: other work on the machine does not move it.
type usage struct {
	dirs      []string
	processes int64 // the most processes at once (pids.peak, else sampled pids.current)
	memory    int64 // the memory peak in bytes (memory.peak or memory.max_usage_in_bytes)
	forkFails int64 // forks refused at pids.max (pids.events)
}

func readInt(path string) (int64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return n, err == nil
}

// observe is a ShellLimits.observe sampling the command's pids cgroup
// until the command ends, then reading the peaks its cgroups kept.
func (u *usage) observe(dirs []string) func() {
	u.dirs = dirs
	var pids []string
	for _, d := range dirs {
		if _, ok := readInt(filepath.Join(d, "pids.current")); ok {
			pids = append(pids, filepath.Join(d, "pids.current"))
		}
	}
	var peak atomic.Int64
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !done.Load() {
			for _, p := range pids {
				if n, ok := readInt(p); ok && n > peak.Load() {
					peak.Store(n)
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
	return func() {
		done.Store(true)
		wg.Wait()
		u.processes = peak.Load()
		for _, d := range dirs {
			if n, ok := readInt(filepath.Join(d, "pids.peak")); ok {
				u.processes = max(u.processes, n)
			}
			for _, f := range []string{"memory.peak", "memory.max_usage_in_bytes"} {
				if n, ok := readInt(filepath.Join(d, f)); ok {
					u.memory = max(u.memory, n)
				}
			}
			if data, err := os.ReadFile(filepath.Join(d, "pids.events")); err == nil {
				for line := range strings.Lines(string(data)) {
					if v, ok := strings.CutPrefix(strings.TrimSpace(line), "max "); ok {
						n, _ := strconv.ParseInt(v, 10, 64)
						u.forkFails += n
					}
				}
			}
		}
	}
}

// runBomb runs command under lim, with a copy of lim observed, and checks
// from the command's own cgroups that it stayed within its bounds and
// that its processes are gone after.
func runBomb(t *testing.T, lim *ShellLimits, dir, command string) (int, error, string, *usage) {
	t.Helper()
	requireBound(t, lim)
	u := &usage{}
	observed := *lim
	observed.observe = u.observe
	var out bytes.Buffer
	sh := &LocalShell{Limits: &observed}
	code, err := sh.Exec(context.Background(), ShellCommand{Command: command, Dir: dir, Timeout: bombTimeout, Output: &out})
	t.Logf("cgroups %v: %d processes at most (%d forks refused), memory peak %d bytes; output %d bytes",
		u.dirs, u.processes, u.forkFails, u.memory, out.Len())
	require.NotEmpty(t, u.dirs, "the command ran in cgroups of its own")
	if lim.Processes > 0 {
		assert.Positive(t, u.processes, "the command's processes were counted")
		assert.LessOrEqual(t, u.processes, int64(lim.Processes), "the bomb stayed bounded")
	}
	if lim.Memory > 0 && u.memory > 0 {
		// v1's memory.max_usage_in_bytes may pass the limit by the
		// kernel's per-CPU charge batch before reclaim or the OOM killer.
		assert.LessOrEqual(t, u.memory, lim.Memory+(4<<20), "the memory stayed bounded")
	}
	for _, d := range u.dirs {
		// A cgroup can be removed only once its processes are gone.
		_, statErr := os.Stat(d)
		assert.ErrorIs(t, statErr, os.ErrNotExist, "the cgroup and its processes are gone")
	}
	return code, err, out.String(), u
}

// userProcesses counts the processes of uid on the machine.
func userProcesses(uid uint32) int {
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		if c := e.Name()[0]; c < '0' || c > '9' {
			continue
		}
		if fi, err := os.Stat("/proc/" + e.Name()); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid == uid {
				n++
			}
		}
	}
	return n
}

// runUserBomb runs command under lim's rlimits, without a cgroup, and
// checks from the processes of lim.UID (which the command alone should
// add to) that it stayed bounded and that its processes are gone after.
func runUserBomb(t *testing.T, lim *ShellLimits, command string) (int, error, string) {
	t.Helper()
	requireBound(t, lim)
	before := userProcesses(lim.UID)
	var peak atomic.Int64
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !done.Load() {
			if n := int64(userProcesses(lim.UID)); n > peak.Load() {
				peak.Store(n)
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	var out bytes.Buffer
	sh := &LocalShell{Limits: lim}
	code, err := sh.Exec(context.Background(), ShellCommand{Command: command, Dir: "/", Timeout: bombTimeout, Output: &out})
	done.Store(true)
	wg.Wait()
	t.Logf("processes of uid %d: %d before, %d at the peak; output %d bytes", lim.UID, before, peak.Load(), out.Len())
	// RLIMIT_NPROC counts the user's processes machine-wide: the bomb
	// cannot take the count past the bound, or past where it was.
	assert.LessOrEqual(t, peak.Load(), int64(max(before, lim.Processes)+1), "the bomb stayed bounded")
	require.Eventually(t, func() bool { return userProcesses(lim.UID) <= before }, 10*time.Second, 50*time.Millisecond, "the bomb's processes are gone")
	return code, err, out.String()
}

const forkBomb = `b() { b | b & }; b; sleep 1; echo forked`

func TestLimitsForkBomb(t *testing.T) {
	lim := &ShellLimits{Processes: bombProcesses, Memory: bombMemory, CPUs: bombCPUs}
	_, err, _, u := runBomb(t, lim, t.TempDir(), forkBomb)
	assert.Positive(t, u.forkFails, "the bomb reached pids.max")
	// The shell exits after a second; its bombs keep writing fork errors
	// until the timeout, or stop when the grace period closes their pipe:
	// either way they are killed with the cgroup.
	if err != nil {
		require.ErrorIs(t, err, ErrTimeout)
	}
}

func TestLimitsMemoryBomb(t *testing.T) {
	lim := &ShellLimits{Processes: bombProcesses, Memory: bombMemory, CPUs: bombCPUs}
	// tail keeps a line without newline whole: it grows until killed.
	code, err, out, _ := runBomb(t, lim, t.TempDir(), `head -c 500000000 /dev/zero | tail -n 1 >/dev/null; echo "tail: $?"`)
	require.NoError(t, err)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "tail: 137", "tail was killed at the memory bound")
}

func TestLimitsNonRootUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("running as another user needs root")
	}
	lim := &ShellLimits{Processes: bombProcesses, Memory: bombMemory, UID: 65534, GID: 65534, noCgroup: true}
	code, err, out := runUserBomb(t, lim, `head -c 500000000 /dev/zero | tail -n 1 >/dev/null; echo "tail: $?"; ulimit -u -v`)
	require.NoError(t, err)
	assert.Equal(t, 0, code)
	assert.NotContains(t, out, "tail: 0", "tail failed at the address-space bound")
	assert.Contains(t, out, "(-u) 64\n")
	assert.Contains(t, out, "(kbytes, -v) 65536\n")
	_, err, _ = runUserBomb(t, lim, forkBomb)
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
	// One CPU second can take many seconds on a busy machine; the bound
	// ends the loop, the timeout only guards the test.
	code, err := sh.Exec(context.Background(), ShellCommand{Command: "while :; do :; done", Dir: dir, Timeout: 2 * time.Minute})
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

// A command run as root can leave its cgroup and raise its rlimits (see
// ShellLimits); run as another user it can do neither.
func TestLimitsUserCannotLeaveItsBounds(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("running as another user needs root")
	}
	lim := &ShellLimits{Processes: bombProcesses, CPUTime: time.Minute, UID: 65534, GID: 65534}
	requireBound(t, lim)
	var out bytes.Buffer
	sh := &LocalShell{Limits: lim}
	code, err := sh.Exec(context.Background(), ShellCommand{
		Command: `for f in /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/*/cgroup.procs; do echo $$ 2>/dev/null > "$f" && echo "left to $f"; done
ulimit -t unlimited 2>/dev/null && echo raised
grep pids /proc/self/cgroup`,
		Dir: "/", Timeout: bombTimeout, Output: &out,
	})
	require.NoError(t, err)
	assert.Equal(t, 0, code, out.String())
	assert.NotContains(t, out.String(), "left to", "the command stayed in its cgroup")
	assert.NotContains(t, out.String(), "raised", "the command kept its CPU time bound")
	if strings.Contains(out.String(), "pids") {
		assert.Contains(t, out.String(), "codingtools-", "the command is in its own cgroup")
	}
}

// A wrapper that cannot join its cgroup fails Exec with ErrUnbounded; a
// command of its own that exits with the wrapper's code does not.
func TestLimitsJoinFailure(t *testing.T) {
	dir := t.TempDir()
	sh := &LocalShell{}
	b := &bound{procs: []string{dir + "/missing/cgroup.procs"}}
	code, err := sh.run(context.Background(), ShellCommand{Command: "touch ran", Dir: dir, Timeout: bombTimeout}, b, nil, 0)
	require.ErrorIs(t, err, ErrUnbounded)
	assert.Zero(t, code)
	_, err = os.Stat(dir + "/ran")
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing ran")

	var out bytes.Buffer
	b = &bound{ulimits: []string{"-t", "60"}}
	code, err = sh.run(context.Background(), ShellCommand{Command: "[ -e /proc/$$/fd/3 ] && echo inherited; exit 125", Dir: dir, Timeout: bombTimeout, Output: &out}, b, nil, 0)
	require.NoError(t, err)
	assert.Equal(t, boundExit, code)
	assert.Empty(t, out.String(), "the command does not inherit the wrapper's descriptor")
}

// deadPID returns the id of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	return cmd.Process.Pid
}

func TestLimitsRemoveStale(t *testing.T) {
	parent := t.TempDir()
	dead, live := deadPID(t), os.Getppid()
	names := map[string]bool{ // name: removed
		fmt.Sprintf("codingtools-%d-1", dead):        true,
		fmt.Sprintf("codingtools-%d-22", dead):       true,
		fmt.Sprintf("codingtools-%d-1", live):        false,
		fmt.Sprintf("codingtools-%d-1", os.Getpid()): false,
		fmt.Sprintf("codingtools-%d-x", dead):        false,
		fmt.Sprintf("codingtools-%d", dead):          false,
		fmt.Sprintf("other-%d-1", dead):              false,
		fmt.Sprintf("codingtools-%d-2", dead):        false, // holds a process
		fmt.Sprintf("codingtools-%d-3", dead):        false, // not empty
	}
	for name := range names {
		require.NoError(t, os.Mkdir(filepath.Join(parent, name), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(parent, fmt.Sprintf("codingtools-%d-2", dead), "cgroup.procs"), []byte("1\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(parent, fmt.Sprintf("codingtools-%d-3", dead), "cgroup.procs"), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(parent, fmt.Sprintf("codingtools-%d-9", dead)), nil, 0o644)) // a file
	removeStale(parent)
	for name, removed := range names {
		_, err := os.Stat(filepath.Join(parent, name))
		if removed {
			assert.ErrorIs(t, err, os.ErrNotExist, name)
		} else {
			assert.NoError(t, err, name)
		}
	}
	_, err := os.Stat(filepath.Join(parent, fmt.Sprintf("codingtools-%d-9", dead)))
	assert.NoError(t, err, "a file is left")
}

// A cgroup left by a process that crashed is removed by the next setup
// below the same parent.
func TestLimitsSetupRemovesStaleCgroups(t *testing.T) {
	lim := &ShellLimits{Processes: bombProcesses}
	b, err := lim.setup()
	if errors.Is(err, ErrUnbounded) || (err == nil && len(b.dirs) == 0) {
		t.Skipf("no cgroup on this machine: %v", err)
	}
	require.NoError(t, err)
	parent := filepath.Dir(b.dirs[0])
	b.cleanup()
	stale := filepath.Join(parent, fmt.Sprintf("codingtools-%d-1", deadPID(t)))
	if err := os.Mkdir(stale, 0o755); err != nil {
		t.Skipf("cannot create a cgroup in %s: %v", parent, err)
	}
	t.Cleanup(func() { _ = syscall.Rmdir(stale) })
	swept.Delete(parent)
	b, err = lim.setup()
	require.NoError(t, err)
	b.cleanup()
	_, err = os.Stat(stale)
	assert.ErrorIs(t, err, os.ErrNotExist, "the stale cgroup was removed")
}

// v2Bound creates a cgroup in a writable unified hierarchy without
// controllers (this machine's /sys/fs/cgroup/unified has none that bound),
// which is enough to test how the command is started in it and killed.
func v2Bound(t *testing.T) *bound {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("creating a cgroup needs root")
	}
	for _, root := range []string{"/sys/fs/cgroup/unified", "/sys/fs/cgroup"} {
		b := &bound{}
		if err := b.cgroupV2(&ShellLimits{cgroup2Root: root}); err == nil {
			t.Cleanup(b.cleanup)
			return b
		} else {
			b.cleanup()
			t.Logf("%s: %v", root, err)
		}
	}
	t.Skip("no writable cgroup2 hierarchy")
	return nil
}

// The kernel starts the command in its v2 cgroup, run as a user who could
// not join it from inside (no write access to our cgroup.procs), and the
// end of the bound kills what it left there.
func TestLimitsV2StartsCommandInItsCgroup(t *testing.T) {
	b := v2Bound(t)
	require.True(t, b.v2)
	require.NotNil(t, b.cgroupFD)
	assert.Empty(t, b.procs, "no wrapper joins a v2 cgroup")
	assert.False(t, b.wrapped())
	var out bytes.Buffer
	sh := &LocalShell{}
	code, err := sh.run(context.Background(), ShellCommand{
		Command: `grep '^0::' /proc/self/cgroup; id -u; setsid sleep 300 & echo "pid $!"`,
		Dir:     "/", Timeout: bombTimeout, Output: &out,
	}, b, &syscall.Credential{Uid: 65534, Gid: 65534}, 0)
	require.NoError(t, err)
	require.Equal(t, 0, code, out.String())
	rel := strings.TrimPrefix(b.dirs[0], "/sys/fs/cgroup/unified")
	if !strings.HasPrefix(b.dirs[0], "/sys/fs/cgroup/unified") {
		rel = strings.TrimPrefix(b.dirs[0], "/sys/fs/cgroup")
	}
	assert.Contains(t, out.String(), "0::"+rel+"\n", "the command started in its cgroup")
	assert.Contains(t, out.String(), "\n65534\n", "as the user")
	_, p, ok := strings.Cut(out.String(), "pid ")
	require.True(t, ok, out.String())
	pid, err := strconv.Atoi(strings.TrimSpace(p))
	require.NoError(t, err)
	assert.False(t, gone(pid), "the escaped process outlived the shell")
	dir := b.dirs[0]
	b.cleanup()
	assert.True(t, gone(pid), "cgroup.kill killed the escaped process")
	_, err = os.Stat(dir)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Nil(t, b.cgroupFD, "the cgroup's descriptor is closed")
}

// A cgroup that cannot take the command fails the start with ErrUnbounded.
func TestLimitsV2StartFailure(t *testing.T) {
	b := v2Bound(t)
	// A cgroup removed under the bound refuses the command.
	require.NoError(t, syscall.Rmdir(b.dirs[0]))
	sh := &LocalShell{}
	tmp := t.TempDir()
	_, err := sh.run(context.Background(), ShellCommand{Command: "touch ran", Dir: tmp, Timeout: bombTimeout}, b, nil, 0)
	require.ErrorIs(t, err, ErrUnbounded)
	_, err = os.Stat(tmp + "/ran")
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing ran")
}

// setup falling back from v2 to v1 or rlimits leaves no v2 state.
func TestLimitsV2Fallback(t *testing.T) {
	for _, root := range []string{t.TempDir(), "/sys/fs/cgroup/unified"} {
		// unified has no pids controller to enable here.
		lim := &ShellLimits{Processes: bombProcesses, UID: 65534, GID: 65534, cgroup2Root: root}
		b, err := lim.setup()
		if errors.Is(err, ErrUnbounded) {
			continue
		}
		require.NoError(t, err)
		if b.v2 {
			b.cleanup()
			continue // this machine's v2 binds
		}
		assert.Nil(t, b.cgroupFD, root)
		for _, d := range b.dirs {
			assert.NotContains(t, d, root, "no cgroup left in the v2 hierarchy")
		}
		b.cleanup()
	}
}
