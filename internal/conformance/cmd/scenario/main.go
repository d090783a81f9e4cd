// Command scenario plays a conformance scenario on agentcore and prints its
// trace, one JSON object per line (FORMAT.md):
//
//	go run ./internal/conformance/cmd/scenario SCENARIO.json > trace.jsonl
//	go run ./internal/conformance/cmd/scenario -bench N SCENARIO.json
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pi-go/agentcore/internal/conformance"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "scenario:", err)
		os.Exit(1)
	}
}

func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("scenario", flag.ContinueOnError)
	bench := fs.Int("bench", 0, "play the scenario `N` times without recording and print the timings")
	cpuProfile := fs.String("cpuprofile", "", "with -bench, write a CPU profile of the runs to `file`")
	memProfile := fs.String("memprofile", "", "with -bench, write an allocation profile of the runs to `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: scenario [-bench N] SCENARIO.json")
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	s, err := conformance.Parse(data)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if *bench > 0 {
		stop, err := startProfiles(*cpuProfile, *memProfile)
		if err != nil {
			return err
		}
		defer stop()
		ns := make([]int64, 0, *bench)
		var last conformance.Result
		for range *bench {
			if last, err = conformance.Play(ctx, s, conformance.Options{}); err != nil {
				return err
			}
			ns = append(ns, last.Elapsed.Nanoseconds())
		}
		line, _ := json.Marshal(map[string]any{"type": "bench", "runs": *bench, "ns": ns, "events": last.Events, "requests": last.Requests})
		_, err = fmt.Fprintln(w, string(line))
		return err
	}
	res, err := conformance.Play(ctx, s, conformance.Options{Record: true})
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, strings.Join(res.Trace, "\n")+"\n")
	return err
}
