package codingtools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/agentcore"
)

// bashArgs are the bash tool's arguments.
type bashArgs struct {
	Command string   `json:"command"`
	Timeout *float64 `json:"timeout,omitempty"`
}

// BashDetails are the details of a bash result: set when the output was
// cut, with the file holding all of it.
type BashDetails struct {
	Truncation     *Truncation `json:"truncation,omitempty"`
	FullOutputPath string      `json:"fullOutputPath,omitempty"`
}

// BashOutput is the structured content of a bash result, for programmatic
// callers: the whole output up to 1 MB (its ends around a marker beyond).
type BashOutput struct {
	Output          string  `json:"output"`
	Truncated       bool    `json:"truncated"`
	FullOutputPath  string  `json:"full_output_path,omitempty"`
	ExitCode        int     `json:"exit_code"`
	WallTimeSeconds float64 `json:"wall_time_seconds"`
}

// Limits of bash's timeout and structured output.
const (
	maxTimeoutMs         = 2_147_483_647
	structuredOutputMax  = 1024 * 1024
	bashUpdateThrottle   = 100 * time.Millisecond
	bashTempOutputPrefix = "pi-bash"
)

func itoa(n int) string { return strconv.Itoa(n) }

// bashTool builds the bash tool.
func (s *toolset) bashTool() agentcore.Tool {
	return s.declare("bash", func(ctx context.Context, _ string, raw json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		var args bashArgs
		if err := json.Unmarshal(raw, &args); err != nil {
			return agentcore.ToolResult{}, fmt.Errorf("decoding arguments of bash: %w", err)
		}
		return s.bash(ctx, args, onUpdate)
	})
}

// timeoutOf checks a timeout in seconds as pi does.
func timeoutOf(t *float64) (time.Duration, error) {
	if t == nil {
		return 0, nil
	}
	if math.IsNaN(*t) || math.IsInf(*t, 0) || *t <= 0 {
		return 0, errors.New("Invalid timeout: must be a finite number of seconds")
	}
	if *t*1000 > maxTimeoutMs {
		return 0, fmt.Errorf("Invalid timeout: maximum is %s seconds", strconv.FormatFloat(maxTimeoutMs/1000.0, 'f', -1, 64))
	}
	return time.Duration(*t * float64(time.Second)), nil
}

// throttledOutput forwards output to the accumulator and reports partial
// results at most every bashUpdateThrottle.
type throttledOutput struct {
	mu       sync.Mutex
	acc      *outputAccumulator
	onUpdate func(agentcore.ToolResult)
	last     time.Time
	dirty    bool
}

func (t *throttledOutput) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n, err := t.acc.Write(p)
	t.dirty = true
	if t.onUpdate != nil && time.Since(t.last) >= bashUpdateThrottle {
		t.emit()
	}
	return n, err
}

func (t *throttledOutput) emit() {
	if t.onUpdate == nil || !t.dirty {
		return
	}
	t.dirty, t.last = false, time.Now()
	tr, full := t.acc.snapshot(true)
	d := BashDetails{FullOutputPath: full}
	if tr.Truncated {
		d.Truncation = &tr
	}
	t.onUpdate(agentcore.ToolResult{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: tr.Content}}, Details: d})
}

func (s *toolset) bash(ctx context.Context, args bashArgs, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
	command := args.Command
	if s.opts.CommandPrefix != "" {
		command = s.opts.CommandPrefix + "\n" + command
	}
	acc := newOutputAccumulator(s.opts.TempDir, bashTempOutputPrefix)
	out := &throttledOutput{acc: acc, onUpdate: onUpdate}
	if onUpdate != nil {
		onUpdate(agentcore.ToolResult{Content: []agentcore.ContentBlock{}})
	}
	finish := func() (Truncation, string) {
		out.mu.Lock()
		defer out.mu.Unlock()
		acc.finish()
		out.emit()
		tr, full := acc.snapshot(true)
		_ = acc.closeTemp()
		return tr, full
	}
	format := func(tr Truncation, full, empty string) (string, any) {
		text := tr.Content
		if text == "" {
			text = empty
		}
		if !tr.Truncated {
			return text, nil
		}
		start, end := tr.TotalLines-tr.OutputLines+1, tr.TotalLines
		switch {
		case tr.LastLinePartial:
			text += fmt.Sprintf("\n\n[Showing last %s of line %d (line is %s). Full output: %s]", FormatSize(tr.OutputBytes), end, FormatSize(acc.currentLineBytes), full)
		case tr.TruncatedBy == TruncatedByLines:
			text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d. Full output: %s]", start, end, tr.TotalLines, full)
		default:
			text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d (%s limit). Full output: %s]", start, end, tr.TotalLines, FormatSize(DefaultMaxBytes), full)
		}
		return text, BashDetails{Truncation: &tr, FullOutputPath: full}
	}
	withStatus := func(text, status string) string {
		if text == "" {
			return status
		}
		return text + "\n\n" + status
	}
	started := time.Now()
	timeout, err := timeoutOf(args.Timeout)
	code := 0
	if err == nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		} else {
			env := s.opts.Env
			if env == nil {
				env = shellEnv()
			}
			code, err = s.shell.Exec(ctx, ShellCommand{Command: command, Dir: s.dir, Env: env, Timeout: timeout, Output: out})
		}
	}
	if err != nil {
		tr, full := finish()
		text, _ := format(tr, full, "")
		var te *TimeoutError
		switch {
		case ctx.Err() != nil:
			return agentcore.ToolResult{}, errors.New(withStatus(text, "Command aborted"))
		case errors.As(err, &te):
			status := fmt.Sprintf("Command timed out after %s seconds", jsNumber(args.Timeout))
			if te.ShellExited {
				status += fmt.Sprintf(". The shell exited with code %d after %s seconds, but background processes it started kept writing output until the timeout.", te.ExitCode, strconv.FormatFloat(math.Round(te.After.Seconds()*10)/10, 'f', -1, 64))
			}
			return agentcore.ToolResult{}, errors.New(withStatus(text, status))
		case errors.Is(err, ErrLimit):
			return agentcore.ToolResult{}, errors.New(withStatus(text, "Command "+strings.TrimPrefix(err.Error(), "command ")))
		}
		return agentcore.ToolResult{}, err
	}
	tr, full := finish()
	text, details := format(tr, full, "(no output)")
	output, cut := acc.fullOutput(structuredOutputMax)
	structured := BashOutput{Output: output, Truncated: cut, ExitCode: code, WallTimeSeconds: math.Round(time.Since(started).Seconds()*10) / 10}
	if cut {
		structured.FullOutputPath = full
	}
	res := agentcore.ToolResult{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text}}, Details: details, StructuredContent: structured}
	if code != 0 {
		res.Content = []agentcore.ContentBlock{agentcore.TextBlock{Text: withStatus(text, fmt.Sprintf("Command exited with code %d", code))}}
		res.IsError = true
	}
	return res, nil
}
