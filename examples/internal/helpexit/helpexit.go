// Package helpexit checks, from an example's tests, that the program
// answers -h with its usage and exit status 0: the test binary runs
// itself again as the program.
package helpexit

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// env marks the test binary run again as the program.
const env = "AGENTCORE_EXAMPLE_MAIN"

// Check runs main with the command line "-h" in a child process (the
// test binary, running only the calling test) and checks that it exits
// with status 0 and prints usage, which must contain want. Call it from
// a test named test, alone in its process's run of that test.
func Check(t *testing.T, test string, main func(), want string) {
	t.Helper()
	if os.Getenv(env) == "1" {
		os.Args = []string{"example", "-h"}
		main() // returning is exit status 0: the test passes
		return
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "exit status of -h: %s", out)
	assert.Contains(t, string(out), want)
}
