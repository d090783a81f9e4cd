package codingtools

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ShellLimits bound what one command of a [LocalShell] and everything it
// starts may use. A zero field means no bound.
//
// Processes, Memory and CPUs bind root too when the machine lets the
// shell create a cgroup (v2, below the process's own cgroup, which must
// have or be able to enable the pids, memory and cpu controllers for its
// children; else v1's pids, memory and cpu hierarchies, writable by the
// process): the command runs in a cgroup of its own, which abort,
// timeout and the end of the command kill whole — background processes
// included. Linux enables v2's memory controller only in a cgroup holding
// no process (the machine's root cgroup excepted), and the process holds
// its own: outside the root cgroup, Memory falls back to v1 or the
// rlimits. Without a cgroup they fall back to rlimits of each
// process (RLIMIT_NPROC, RLIMIT_AS), which hold only when UID names a
// user other than root: RLIMIT_NPROC does not bind root, and counts every
// process of that user on the machine; abort and timeout then kill the
// command's process group only, and a process that leaves it (setsid)
// survives. When neither is possible the command does not run and Exec
// fails with [ErrUnbounded]. CPUTime is RLIMIT_CPU, which the kernel
// applies to root too.
//
// The cgroups are named codingtools-PID-N after the process; the first
// command below a parent cgroup removes those a process that died left
// there, once they hold no process.
//
// The bounds hold against a command that overreaches by mistake, run as
// any user. They do not hold against a command run as root that means to
// escape: root may write its process id to any cgroup.procs file, leaving
// its cgroup (and the kill at its end), and with CAP_SYS_RESOURCE may
// raise its rlimits. Against a hostile command, set UID: a user other
// than root can do neither. The rlimits are set with the
// shell's ulimit builtin (-u, -v, -t): the shell must be bash or one with
// the same flags. In a v2 cgroup the kernel starts the command
// (clone3 with CLONE_INTO_CGROUP, Linux 5.7 or later), so a command run as
// UID needs no write access to the process's own cgroup; a short script
// run by that shell joins v1 cgroups and sets the rlimits, then execs the
// shell with the command. When either cannot, the command never runs and
// Exec fails with [ErrUnbounded].
type ShellLimits struct {
	// Processes bounds the processes and threads alive at once (the
	// cgroup's pids.max, else RLIMIT_NPROC of UID).
	Processes int
	// Memory bounds the memory in bytes: of the whole command (the
	// cgroup's memory.max or memory.limit_in_bytes, the kernel killing a
	// process that exceeds it), else the address space of each process.
	Memory int64
	// CPUs bounds the rate of CPU time of the whole command, in CPUs: 0.5
	// is half of one core's time (the cgroup's cpu.max, or v1's
	// cpu.cfs_quota_us, over a 100 ms period). It needs a cgroup: without
	// one the command does not run ([ErrUnbounded]).
	CPUs float64
	// CPUTime bounds the CPU time of each process, rounded up to whole
	// seconds; the kernel kills a process that exceeds it (SIGXCPU, then
	// SIGKILL).
	CPUTime time.Duration
	// Output bounds the bytes of output: past it the command is killed
	// and Exec returns a *[LimitError].
	Output int64
	// UID and GID, when UID is not 0, run the command as that user (the
	// process must be root to do so). Files the command must write need
	// that user's permissions.
	UID, GID uint32

	// noCgroup makes the tests use the rlimit fallback.
	noCgroup bool
	// cgroup2Root, when not empty, replaces /sys/fs/cgroup as the mount
	// point of the unified hierarchy (tests).
	cgroup2Root string
	// observe, when not nil, is called by Exec with the command's cgroup
	// directories before the command starts; the func it returns is
	// called after the command ended, before the cgroups are removed.
	// The tests measure the command's own use with it.
	observe func(dirs []string) (stop func())
}

// ErrUnbounded is the error of a command whose [ShellLimits] cannot be
// established on this machine; it never ran.
var ErrUnbounded = errors.New("codingtools: the command's limits cannot be established on this machine")

// ErrLimit is matched by a *[LimitError] with [errors.Is].
var ErrLimit = errors.New("codingtools: command limit exceeded")

// LimitError reports a command killed because it exceeded a bound of its
// [ShellLimits] that Exec watches itself (its output).
type LimitError struct {
	// Limit names the bound exceeded: "output".
	Limit string
	// Value is the bound, in bytes for "output".
	Value int64
}

// Error names the bound.
func (e *LimitError) Error() string {
	return fmt.Sprintf("command killed: %s exceeded %d bytes", e.Limit, e.Value)
}

// Is makes errors.Is(err, ErrLimit) true.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// boundExit is the wrapper's exit code when it could not establish the
// bound; the command did not run.
const boundExit = 125

// bound is the state of one bounded command.
type bound struct {
	dirs    []string // the cgroups, removed at the end
	v2      bool     // dirs are in the unified hierarchy
	procs   []string // the cgroup.procs files the wrapper joins (v1)
	ulimits []string // ulimit arguments
	// cgroupFD is the v2 cgroup opened, in which the kernel starts the
	// command (clone3's CLONE_INTO_CGROUP): the process starting it needs
	// write access to the cgroup, not the command's user.
	cgroupFD *os.File
}

var cgroupSeq atomic.Int64

// setup creates the cgroup(s) of one command, or decides on rlimits. It
// returns ErrUnbounded when the bound cannot hold.
func (lim *ShellLimits) setup() (*bound, error) {
	b := &bound{}
	if lim.CPUTime > 0 {
		secs := int64((lim.CPUTime + time.Second - 1) / time.Second)
		b.ulimits = append(b.ulimits, "-t", strconv.FormatInt(secs, 10))
	}
	if lim.Processes <= 0 && lim.Memory <= 0 && lim.CPUs <= 0 {
		return b, nil
	}
	var err error
	if !lim.noCgroup {
		if err = b.cgroupV2(lim); err != nil {
			b.cleanup()
			b.v2 = false
			err = b.cgroupV1(lim)
		}
		if err == nil {
			return b, b.chown(lim)
		}
		b.cleanup()
		b.dirs, b.procs, b.v2 = nil, nil, false
	}
	if lim.UID == 0 {
		return nil, fmt.Errorf("%w: no cgroup (%v) and no user other than root", ErrUnbounded, err)
	}
	if lim.CPUs > 0 {
		return nil, fmt.Errorf("%w: a CPU rate needs a cgroup (%v)", ErrUnbounded, err)
	}
	if lim.Processes > 0 {
		b.ulimits = append(b.ulimits, "-u", strconv.Itoa(lim.Processes))
	}
	if lim.Memory > 0 {
		b.ulimits = append(b.ulimits, "-v", strconv.FormatInt(max(1, lim.Memory/1024), 10))
	}
	return b, nil
}

// swept holds the parent cgroups removeStale has swept in this process.
var swept sync.Map

// newCgroupDir creates a cgroup below parent, first removing the stale
// cgroups a crashed process left there.
func (b *bound) newCgroupDir(parent string) (string, error) {
	if _, done := swept.LoadOrStore(parent, true); !done {
		removeStale(parent)
	}
	dir := filepath.Join(parent, fmt.Sprintf("codingtools-%d-%d", os.Getpid(), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", err
	}
	b.dirs = append(b.dirs, dir)
	return dir, nil
}

// removeStale removes the cgroups below parent named codingtools-PID-N,
// as newCgroupDir names them, whose process PID is gone and which hold no
// process. Other cgroups, and ours that still hold a process, are left.
func removeStale(parent string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, ok := staleName(e.Name())
		if !ok || !e.IsDir() || pid == os.Getpid() || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		if procs, err := os.ReadFile(filepath.Join(dir, "cgroup.procs")); err == nil && len(strings.TrimSpace(string(procs))) > 0 {
			continue
		}
		// rmdir removes a cgroup holding no process and no child; it
		// fails on anything else.
		_ = syscall.Rmdir(dir)
	}
}

// staleName returns PID of a name codingtools-PID-N.
func staleName(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "codingtools-")
	if !ok {
		return 0, false
	}
	p, n, ok := strings.Cut(rest, "-")
	if !ok || !allDigits(p) || !allDigits(n) {
		return 0, false
	}
	pid, err := strconv.Atoi(p)
	return pid, err == nil && pid > 0
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func writeCgroup(dir, file, value string) error {
	return os.WriteFile(filepath.Join(dir, file), []byte(value), 0)
}

// cgroupV2 sets up a cgroup in the unified hierarchy below the process's
// own, which must delegate the controllers needed, and opens it for
// clone3 to start the command in: joining it from the command would need
// write access to the process's own cgroup.procs, which a command run as
// another user lacks. It sets b.v2 only on success.
func (b *bound) cgroupV2(lim *ShellLimits) error {
	root := lim.cgroup2Root
	if root == "" {
		root = "/sys/fs/cgroup"
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(root, &st); err != nil || st.Type != 0x63677270 {
		return fmt.Errorf("%s is not cgroup2", root)
	}
	own := ownCgroups()[""]
	if own == "" {
		return errors.New("no cgroup2 path in /proc/self/cgroup")
	}
	parent := filepath.Join(root, own)
	want := map[string]bool{"pids": lim.Processes > 0, "memory": lim.Memory > 0, "cpu": lim.CPUs > 0}
	have, err := os.ReadFile(filepath.Join(parent, "cgroup.subtree_control"))
	if err != nil {
		return err
	}
	for c, need := range want {
		if need && !strings.Contains(" "+strings.TrimSpace(string(have))+" ", " "+c+" ") {
			if err := writeCgroup(parent, "cgroup.subtree_control", "+"+c); err != nil {
				return fmt.Errorf("enabling %s in %s: %w", c, parent, err)
			}
		}
	}
	dir, err := b.newCgroupDir(parent)
	if err != nil {
		return err
	}
	if lim.Processes > 0 {
		if err := writeCgroup(dir, "pids.max", strconv.Itoa(lim.Processes)); err != nil {
			return err
		}
	}
	if lim.Memory > 0 {
		if err := writeCgroup(dir, "memory.max", strconv.FormatInt(lim.Memory, 10)); err != nil {
			return err
		}
		_ = writeCgroup(dir, "memory.swap.max", "0")
	}
	if lim.CPUs > 0 {
		if err := writeCgroup(dir, "cpu.max", fmt.Sprintf("%d %d", cpuQuota(lim.CPUs), cpuPeriod)); err != nil {
			return err
		}
	}
	fd, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	b.cgroupFD, b.v2 = fd, true
	return nil
}

// cgroupV1 sets up a cgroup in v1's pids and memory hierarchies.
func (b *bound) cgroupV1(lim *ShellLimits) error {
	mounts := v1Mounts()
	own := ownCgroups()
	set := func(controller string, files ...string) error {
		mnt, ok := mounts[controller]
		if !ok {
			return fmt.Errorf("no cgroup v1 %s hierarchy", controller)
		}
		parent := filepath.Join(mnt, own[controller])
		dir, err := b.newCgroupDir(parent)
		if err != nil {
			return err
		}
		for i := 0; i+1 < len(files); i += 2 {
			if err := writeCgroup(dir, files[i], files[i+1]); err != nil {
				return err
			}
		}
		b.procs = append(b.procs, filepath.Join(dir, "cgroup.procs"))
		return nil
	}
	if lim.Processes > 0 {
		if err := set("pids", "pids.max", strconv.Itoa(lim.Processes)); err != nil {
			return err
		}
	}
	if lim.Memory > 0 {
		if err := set("memory", "memory.limit_in_bytes", strconv.FormatInt(lim.Memory, 10)); err != nil {
			return err
		}
		dir := b.dirs[len(b.dirs)-1]
		if _, err := os.Stat(filepath.Join(dir, "memory.memsw.limit_in_bytes")); err == nil {
			if err := writeCgroup(dir, "memory.memsw.limit_in_bytes", strconv.FormatInt(lim.Memory, 10)); err != nil {
				return err
			}
		}
	}
	if lim.CPUs > 0 {
		if err := set("cpu", "cpu.cfs_period_us", strconv.Itoa(cpuPeriod), "cpu.cfs_quota_us", strconv.Itoa(cpuQuota(lim.CPUs))); err != nil {
			return err
		}
	}
	return nil
}

// cpuPeriod is the period of a CPU rate bound, in microseconds.
const cpuPeriod = 100_000

// cpuQuota is the CPU time in microseconds per cpuPeriod of cpus CPUs, at
// least the kernel's minimum of 1 ms.
func cpuQuota(cpus float64) int { return max(1000, int(cpus*cpuPeriod)) }

// chown lets a command run as UID join its v1 cgroups (the kernel starts
// it in a v2 cgroup).
func (b *bound) chown(lim *ShellLimits) error {
	if lim.UID == 0 {
		return nil
	}
	for _, p := range b.procs {
		if err := os.Chown(p, int(lim.UID), int(lim.GID)); err != nil {
			b.cleanup()
			return fmt.Errorf("%w: %v", ErrUnbounded, err)
		}
	}
	return nil
}

// ownCgroups maps each v1 controller (and "" for v2) to the process's
// cgroup path, from /proc/self/cgroup.
func ownCgroups() map[string]string {
	out := map[string]string{}
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return out
	}
	for line := range strings.Lines(string(data)) {
		parts := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(parts) != 3 {
			continue
		}
		for c := range strings.SplitSeq(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out
}

// v1Mounts maps each v1 controller to the mount point of its hierarchy,
// from /proc/self/mountinfo; only hierarchies mounted at their root.
func v1Mounts() map[string]string {
	out := map[string]string{}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		sep := -1
		for i, f := range fields {
			if f == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || sep+3 >= len(fields) || fields[sep+1] != "cgroup" || fields[3] != "/" {
			continue
		}
		for o := range strings.SplitSeq(fields[sep+3], ",") {
			out[o] = fields[4]
		}
	}
	return out
}

// kill kills every process in the cgroups. With cgroup.kill (v2) the
// kernel does it at once; else each process listed is killed until none
// is left, bounded in rounds.
func (b *bound) kill() {
	for _, dir := range b.dirs {
		if b.v2 && writeCgroup(dir, "cgroup.kill", "1") == nil {
			continue
		}
		for range 1000 {
			data, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
			if err != nil || len(strings.TrimSpace(string(data))) == 0 {
				break
			}
			for f := range strings.FieldsSeq(string(data)) {
				if pid, err := strconv.Atoi(f); err == nil {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// cleanup kills what is left in the cgroups and removes them, waiting a
// bounded time for the processes killed to leave.
func (b *bound) cleanup() {
	if b.cgroupFD != nil {
		b.cgroupFD.Close()
		b.cgroupFD = nil
	}
	if len(b.dirs) == 0 {
		return
	}
	b.kill()
	for i := len(b.dirs) - 1; i >= 0; i-- {
		for try := 0; try < 500; try++ {
			err := os.Remove(b.dirs[i])
			if err == nil || errors.Is(err, os.ErrNotExist) {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	b.dirs = nil
}

// sysProcAttr sets attr to start the command in b's v2 cgroup, if any.
func (b *bound) sysProcAttr(attr *syscall.SysProcAttr) {
	if b.cgroupFD != nil {
		attr.UseCgroupFD, attr.CgroupFD = true, int(b.cgroupFD.Fd())
	}
}

// startError is the error of a command that did not start: one that
// could not be started in its v2 cgroup (a kernel before Linux 5.7, or no
// permission) is unbounded.
func (b *bound) startError(err error) error {
	if b.cgroupFD == nil {
		return err
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err
	}
	if slices.Contains(cloneIntoCgroupErrors, errno) || errno == syscall.ENOENT && b.v2Removed() {
		return fmt.Errorf("%w: starting the command in its cgroup: %v", ErrUnbounded, err)
	}
	return err
}

// v2Removed reports whether b's v2 cgroup was removed (clone3 then
// fails with ENOENT, as exec does for a missing shell).
func (b *bound) v2Removed() bool {
	for _, d := range b.dirs {
		if _, err := os.Stat(d); errors.Is(err, os.ErrNotExist) {
			return true
		}
	}
	return false
}

// cloneIntoCgroupErrors are clone3's errors starting a process in a
// cgroup: no clone3, no permission on the cgroup, or a cgroup that
// cannot take it.
var cloneIntoCgroupErrors = []syscall.Errno{syscall.ENOSYS, syscall.EPERM, syscall.EACCES, syscall.EINVAL, syscall.EBUSY, syscall.EOPNOTSUPP}

// wrapped reports whether the command runs through the wrapper of wrap.
func (b *bound) wrapped() bool { return len(b.procs) > 0 || len(b.ulimits) > 0 }

// wrap returns the argv running shell with -c command inside the bound:
// the wrapper joins the cgroups and sets the rlimits, then execs the
// shell with its file descriptor 3 closed; when it cannot, it writes a
// byte to descriptor 3 and exits with boundExit, running nothing.
func (b *bound) wrap(shell, command string) []string {
	if !b.wrapped() {
		return []string{shell, "-c", command}
	}
	script := `fail() { echo x >&3; exit 125; }
n=$1; shift
while [ "$n" -gt 0 ]; do echo $$ > "$1" || fail; shift; n=$((n-1)); done
u=$1; shift
if [ -n "$u" ]; then ulimit $u || fail; fi
exec "$@" 3>&-`
	args := []string{shell, "-c", script, "codingtools-bound", strconv.Itoa(len(b.procs))}
	args = append(args, b.procs...)
	args = append(args, strings.Join(b.ulimits, " "), shell, "-c", command)
	return args
}
