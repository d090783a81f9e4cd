package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/pi-go/agentcore/internal/golden"
)

// TestQuickstart runs the example and compares its log with the golden file.
func TestQuickstart(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, out.Bytes(), filepath.Join("testdata", "output.golden"))
}
