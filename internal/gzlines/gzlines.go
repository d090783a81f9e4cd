// Package gzlines reads the gzipped JSON-lines files that tests record
// from the TypeScript reference.
package gzlines

import (
	"bufio"
	"compress/gzip"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each calls each with every line of the gzipped file name, in order; a
// line it is given is valid only during the call. It fails t when the
// file cannot be read.
func Each(t testing.TB, name string, each func(line []byte)) {
	t.Helper()
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	z, err := gzip.NewReader(f)
	require.NoError(t, err)
	lines := bufio.NewScanner(z)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		each(lines.Bytes())
	}
	require.NoError(t, lines.Err())
}
