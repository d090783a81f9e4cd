package codingtools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Shell runs bash's commands, as pi's BashOperations: implement it to run
// them in a container or on a remote machine.
type Shell interface {
	// Exec runs c and returns its exit code. It writes the command's
	// output, stdout and stderr combined, to c.Output, from one goroutine
	// at a time, and returns only when it writes no more. When ctx ends it
	// stops the command and everything it started and returns ctx's error;
	// when c.Timeout passes it does the same and returns a *[TimeoutError].
	Exec(ctx context.Context, c ShellCommand) (exitCode int, err error)
}

// ShellCommand is one command for a [Shell].
type ShellCommand struct {
	Command string
	Dir     string
	// Env is the command's environment; nil means the process's (with
	// PWD set to Dir). The bash tool passes pi's ([Options].Env).
	Env     []string
	Timeout time.Duration
	Output  io.Writer
}

// ErrTimeout is matched by a *[TimeoutError] with [errors.Is].
var ErrTimeout = errors.New("codingtools: command timed out")

// TimeoutError reports a command stopped at its timeout.
type TimeoutError struct {
	Timeout time.Duration
	// ShellExited is set when the shell had exited before the timeout and
	// only processes it left in the background kept writing.
	ShellExited bool
	ExitCode    int           // the shell's, when ShellExited
	After       time.Duration // when the shell exited, when ShellExited
}

// Error says how long the command ran before it was killed.
func (e *TimeoutError) Error() string { return fmt.Sprintf("command timed out after %v", e.Timeout) }

// Is makes errors.Is(err, ErrTimeout) true.
func (e *TimeoutError) Is(target error) bool { return target == ErrTimeout }

// LocalShell runs commands with bash on this machine, in a process group
// of their own, so that abort and timeout kill everything a command
// started. Its zero value uses /bin/bash, else bash on PATH, else sh, and
// bounds nothing: set Limits to bound a command's processes, memory, CPU
// time and output. The files a command reaches are never confined.
type LocalShell struct {
	// Path is the shell to run with "-c"; empty means the default.
	Path string
	// Limits, when not nil, bound each command: see [ShellLimits]. Exec
	// fails with [ErrUnbounded], running nothing, when they cannot be
	// established. The struct is read at each Exec; it must not change
	// while a command runs.
	Limits *ShellLimits
}

// errOutputMax ends the reading of a command's output at its bound.
var errOutputMax = errors.New("output bound reached")

// exitGrace is how long output may keep arriving after the shell exited
// before the pipe is closed on the processes still holding it; a variable
// for the tests, which the load of a busy machine must not fail.
var exitGrace = 100 * time.Millisecond

func (l *LocalShell) shell() string {
	if l.Path != "" {
		return l.Path
	}
	if _, err := os.Stat("/bin/bash"); err == nil {
		return "/bin/bash"
	}
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "sh"
}

// Exec runs c.Command with "-c".
func (l *LocalShell) Exec(ctx context.Context, c ShellCommand) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if _, err := os.Stat(c.Dir); err != nil {
		return 0, fmt.Errorf("Working directory does not exist: %s\nCannot execute bash commands.", c.Dir)
	}
	b := &bound{}
	var outputMax int64
	var cred *syscall.Credential
	if lim := l.Limits; lim != nil {
		var err error
		if b, err = lim.setup(); err != nil {
			return 0, err
		}
		defer b.cleanup()
		if lim.observe != nil {
			defer lim.observe(append([]string(nil), b.dirs...))()
		}
		outputMax = lim.Output
		if lim.UID != 0 {
			cred = &syscall.Credential{Uid: lim.UID, Gid: lim.GID}
		}
	}
	return l.run(ctx, c, b, cred, outputMax)
}

// run runs c inside b, as cred when not nil, and kills it past
// outputMax bytes of output when that is not 0.
func (l *LocalShell) run(ctx context.Context, c ShellCommand, b *bound, cred *syscall.Credential, outputMax int64) (int, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	argv := b.wrap(l.shell(), c.Command)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = c.Dir, c.Env, pw, pw
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: cred}
	b.sysProcAttr(cmd.SysProcAttr)
	// The wrapper tells on descriptor 3 that it could not bound the
	// command; it closes it before the command runs.
	var failR, failW *os.File
	if b.wrapped() {
		if failR, failW, err = os.Pipe(); err != nil {
			pr.Close()
			pw.Close()
			return 0, err
		}
		defer failR.Close()
		cmd.ExtraFiles = []*os.File{failW}
	}
	err = cmd.Start()
	pw.Close()
	if failW != nil {
		failW.Close()
	}
	if err != nil {
		pr.Close()
		return 0, b.startError(err)
	}
	pgid := cmd.Process.Pid
	kill := func() {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		b.kill()
	}

	data := make(chan struct{}, 1)
	readDone := make(chan struct{})
	overflow := make(chan struct{})
	go func() {
		defer close(readDone)
		buf := make([]byte, 64*1024)
		var total int64
		for {
			n, err := pr.Read(buf)
			if n > 0 {
				if outputMax > 0 && total+int64(n) > outputMax {
					n = int(outputMax - total)
					err = errOutputMax
				}
				total += int64(n)
				if c.Output != nil && n > 0 {
					_, _ = c.Output.Write(buf[:n])
				}
				select {
				case data <- struct{}{}:
				default:
				}
			}
			if err == errOutputMax {
				close(overflow)
			}
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	overflowC := (<-chan struct{})(overflow)
	started := time.Now()
	var deadline <-chan time.Time
	if c.Timeout > 0 {
		t := time.NewTimer(c.Timeout)
		defer t.Stop()
		deadline = t.C
	}
	var (
		waitErr                error
		shellDone, timedOut    bool
		aborted, overflowed    bool
		exitedAfter            time.Duration
		grace                  *time.Timer
		graceC                 <-chan time.Time
		readerDone             = readDone
		exitedBeforeDeadline   bool
		exitCodeBeforeDeadline int
	)
	stopGrace := func() {
		if grace != nil {
			grace.Stop()
		}
	}
	defer stopGrace()
	armGrace := func() {
		stopGrace()
		grace = time.NewTimer(exitGrace)
		graceC = grace.C
	}
	for !shellDone || readerDone != nil {
		select {
		case waitErr = <-exited:
			shellDone, exitedAfter = true, time.Since(started)
			armGrace()
		case <-readerDone:
			readerDone = nil
		case <-data:
			if shellDone {
				armGrace()
			}
		case <-graceC:
			pr.Close() // background processes still hold the pipe
			graceC = nil
		case <-deadline:
			deadline, timedOut = nil, true
			if shellDone {
				exitedBeforeDeadline, exitCodeBeforeDeadline = true, exitCode(cmd.ProcessState)
			}
			kill()
			armGrace()
		case <-overflowC:
			overflowC, overflowed = nil, true
			kill()
			armGrace()
		case <-ctx.Done():
			if !aborted {
				aborted = true
				kill()
				armGrace()
			}
		}
	}
	pr.Close()
	<-readDone
	code := exitCode(cmd.ProcessState)
	if failR != nil && code == boundExit {
		// The wrapper has exited: its descriptor is closed, the read
		// cannot block.
		if n, _ := failR.Read(make([]byte, 1)); n > 0 {
			return 0, fmt.Errorf("%w: the command could not join its cgroup or set its rlimits", ErrUnbounded)
		}
	}
	switch {
	case aborted:
		return code, ctx.Err()
	case overflowed:
		return code, &LimitError{Limit: "output", Value: outputMax}
	case timedOut:
		te := &TimeoutError{Timeout: c.Timeout}
		if exitedBeforeDeadline {
			te.ShellExited, te.ExitCode, te.After = true, exitCodeBeforeDeadline, exitedAfter
		}
		return code, te
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		return code, waitErr
	}
	return code, nil
}

// exitCode is a finished process's exit code; 128 plus the signal for a
// process a signal killed, as shells report it.
func exitCode(ps *os.ProcessState) int {
	if ps == nil {
		return 1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
