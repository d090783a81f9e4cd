package codingtools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// benchCase is one call of testdata/bench_cases.json, which bench/grep/run.sh
// also gives pi's tools: "$LSDIR" and "$READFILE" in its arguments name a
// directory of 1,000 entries and a file of 2,000 lines.
type benchCase struct {
	Name string          `json:"name"`
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
}

// benchTree returns the tree the benchmarks search, the directory to list
// and the file to read: $CODINGTOOLS_BENCH_TREE (bench/grep/run.sh sets it
// to a copy of GOROOT/src in a git repository), else GOROOT/src itself,
// which, outside git, is searched without .gitignore files;
// $CODINGTOOLS_BENCH_LS and $CODINGTOOLS_BENCH_READ, else made here.
func benchTree(b *testing.B) (tree, lsDir, readFile string) {
	tree = os.Getenv("CODINGTOOLS_BENCH_TREE")
	if tree == "" {
		tree = filepath.Join(runtime.GOROOT(), "src")
	}
	if _, err := os.Stat(tree); err != nil {
		b.Skipf("no tree to search: %v", err)
	}
	lsDir, readFile = os.Getenv("CODINGTOOLS_BENCH_LS"), os.Getenv("CODINGTOOLS_BENCH_READ")
	if lsDir == "" {
		lsDir = filepath.Join(b.TempDir(), "many")
		require.NoError(b, os.Mkdir(lsDir, 0o755))
		for i := range 1000 {
			require.NoError(b, os.WriteFile(filepath.Join(lsDir, fmt.Sprintf("File_%04d.txt", i)), nil, 0o644))
		}
	}
	if readFile == "" {
		readFile = filepath.Join(b.TempDir(), "lines.txt")
		var sb strings.Builder
		for i := range 2000 {
			fmt.Fprintf(&sb, "line %d: the quick brown fox jumps over the lazy dog\n", i+1)
		}
		require.NoError(b, os.WriteFile(readFile, []byte(sb.String()), 0o644))
	}
	return tree, lsDir, readFile
}

// BenchmarkTools runs the calls of testdata/bench_cases.json on a big tree:
// grep, find, ls and read as a model sends them. bench/grep/run.sh runs
// it beside pi's tools; $CODINGTOOLS_BENCH_OUT, when set, is a directory
// where each case's result text is written.
func BenchmarkTools(b *testing.B) {
	tree, lsDir, readFile := benchTree(b)
	data, err := os.ReadFile(filepath.Join("testdata", "bench_cases.json"))
	require.NoError(b, err)
	var cases []benchCase
	require.NoError(b, json.Unmarshal(data, &cases))
	tools := AllTools(tree, nil)
	outDir := os.Getenv("CODINGTOOLS_BENCH_OUT")
	for _, c := range cases {
		args := strings.NewReplacer("$LSDIR", lsDir, "$READFILE", readFile).Replace(string(c.Args))
		tool := tools[0]
		for _, t := range tools {
			if t.Name == c.Tool {
				tool = t
			}
		}
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			var text string
			for b.Loop() {
				res, err := tool.Execute(context.Background(), "bench", json.RawMessage(args), nil)
				require.NoError(b, err)
				text = res.Text()
			}
			if outDir != "" {
				require.NoError(b, os.WriteFile(filepath.Join(outDir, c.Name+".txt"), []byte(text), 0o644))
			}
		})
	}
}

// BenchmarkFindHits times the search of files already in memory (the .go
// files of the bench tree, about 130 MB of GOROOT/src), without reading
// or walking: the prefilter and the regexp alone, on one core.
func BenchmarkFindHits(b *testing.B) {
	tree, _, _ := benchTree(b)
	var files [][]byte
	size := 0
	require.NoError(b, filepath.WalkDir(tree, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			if data, err := os.ReadFile(p); err == nil {
				files, size = append(files, data), size+len(data)
			}
		}
		return nil
	}))
	for _, expr := range []string{"func NewReader", `func \(\w+ \*\w+\) Close\(\)`, "(?i)deadline exceeded", "qzx_nowhere_literal_4711", "TODO|FIXME"} {
		m := newLineMatcher(regexp.MustCompile(expr))
		b.Run(expr, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(size))
			var scratch []byte
			for b.Loop() {
				for _, f := range files {
					m.findHits(f, 101, &scratch)
				}
			}
		})
	}
}
