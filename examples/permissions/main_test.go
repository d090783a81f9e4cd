package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

var update = flag.Bool("update", false, "rewrite the golden output")

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestPermissions answers yes, then no, then nothing: the third question
// times out. The input stays open, like a terminal nobody types in.
func TestPermissions(t *testing.T) {
	in, typing := io.Pipe()
	go func() { _, _ = io.WriteString(typing, "y\nn\n") }()
	defer typing.Close() // ends the reader goroutine

	var out bytes.Buffer
	if err := run(context.Background(), in, &out, 30*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "output.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("output differs from %s (run with -update to accept)\ngot:\n%s", golden, out.String())
	}
}

// TestClosedInput denies every question when there is no input at all.
func TestClosedInput(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), strings.NewReader(""), &out, time.Minute); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.String(), "[y/N] (no input)"); got != 3 {
		t.Errorf("%d questions denied for lack of input, want 3:\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "calls c2 and c3 and c4 were refused") {
		t.Errorf("the model did not see the denials:\n%s", out.String())
	}
}
