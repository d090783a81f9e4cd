package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"

	"github.com/pi-go/agentcore"
)

// byteRange is the size of every tool result when set (-tool-bytes); the
// zero range keeps the tools' own sizes.
type byteRange struct{ min, max int }

func (r byteRange) set() bool { return r.max > 0 }

func (r byteRange) String() string {
	if !r.set() {
		return "default"
	}
	return fmt.Sprintf("%d-%d", r.min, r.max)
}

// Set parses "MIN-MAX" or "N" (bytes); it makes byteRange a flag.Value.
func (r *byteRange) Set(s string) error {
	lo, hi, found := strings.Cut(s, "-")
	if !found {
		hi = lo
	}
	a, err := strconv.Atoi(strings.TrimSpace(lo))
	if err != nil {
		return fmt.Errorf("tool bytes %q: want MIN-MAX or N", s)
	}
	b, err := strconv.Atoi(strings.TrimSpace(hi))
	if err != nil {
		return fmt.Errorf("tool bytes %q: want MIN-MAX or N", s)
	}
	if a < 256 || b < a {
		return fmt.Errorf("tool bytes %q: want 256 <= MIN <= MAX", s)
	}
	r.min, r.max = a, b
	return nil
}

// words are what the sized results are written with.
var words = strings.Fields(`the garden plan has a tree near the water and a house on the hill
	path gate fence bed soil seed rose oak pond bridge bench stone wall hedge lawn shed north
	south east west row column meter spring summer autumn winter water light shade`)

// sizedText returns the text of the n-th sized tool result: the header
// (its first 128 bytes), then numbered lines of words drawn from a
// generator seeded by n, cut to a length in r drawn the same way. The
// same n and header give the same text.
func (r byteRange) sizedText(n uint64, header string) string {
	rng := rand.New(rand.NewPCG(n, 0x5eed))
	size := r.min + rng.IntN(r.max-r.min+1)
	if len(header) > 128 {
		header = strings.ToValidUTF8(header[:128], "")
	}
	var b strings.Builder
	b.WriteString(header)
	for line := 1; b.Len() < size; line++ {
		fmt.Fprintf(&b, "\n%d:", line)
		for range 6 + rng.IntN(8) {
			b.WriteString(" ")
			b.WriteString(words[rng.IntN(len(words))])
		}
	}
	return b.String()[:size]
}

type readArgs struct {
	Path string `json:"path" jsonschema:"required"`
}

type writeArgs struct {
	Path string `json:"path" jsonschema:"required"`
	Text string `json:"text"`
}

// toolCalls counts the calls the tools ran (not the results the agent
// writes for calls it did not run) and the sizes of their results.
type toolCalls struct {
	mu                   sync.Mutex
	n, smallest, largest int
}

// run numbers a call from 1, makes its result's text for that number
// and counts it.
func (c *toolCalls) run(text func(n uint64) string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	t := text(uint64(c.n))
	if c.n == 1 || len(t) < c.smallest {
		c.smallest = len(t)
	}
	c.largest = max(c.largest, len(t))
	return t
}

// tools are a read that returns a page of text and a write that keeps
// it; calls counts what they run. With a set size, every result of
// either is a text of that many bytes, the n-th call of the session
// getting the n-th text.
func tools(size byteRange, calls *toolCalls) []agentcore.Tool {
	page := strings.Repeat("the garden plan has a tree near the water and a house on the hill . ", 18)
	result := func(header, text string) agentcore.ToolResult {
		return agentcore.TextResult(calls.run(func(n uint64) string {
			if size.set() {
				return size.sizedText(n, header)
			}
			return header + text
		}))
	}
	return []agentcore.Tool{
		agentcore.NewTool("read", "Read a file of the project.", func(_ context.Context, _ string, args readArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return result("file "+args.Path+":", "\n"+page), nil
		}),
		agentcore.NewTool("write", "Write a file of the project.", func(_ context.Context, _ string, args writeArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return result(fmt.Sprintf("wrote %d characters to %s", len(args.Text), args.Path), ""), nil
		}),
	}
}
