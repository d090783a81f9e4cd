package codingtools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewlineError(t *testing.T) {
	for _, tt := range []struct {
		expr    string
		refused bool
	}{
		{`a\nb`, true},
		{"a\nb", true},
		{`x[\n]`, true},
		{`x\n?`, true},
		{`a\x0Ab`, true},
		{`(a|b\n)`, true},
		{`\s`, false},
		{`[^a]`, false},
		{`(?s).`, false},
		{`a\\nb`, false},
		{`[\n\t]`, false},
	} {
		err := newlineError(tt.expr)
		if tt.refused {
			assert.ErrorIs(t, err, errNewline, tt.expr)
		} else {
			assert.NoError(t, err, tt.expr)
		}
	}
}

func TestShellEnv(t *testing.T) {
	agent := t.TempDir()
	t.Setenv("PI_CODING_AGENT_DIR", agent)
	t.Setenv("PATH", "/usr/bin:/bin")
	t.Setenv("PI_MODEL", "m")
	t.Setenv("PI_OTHER", "kept")
	env := strings.Join(shellEnv(), "\n") + "\n"
	assert.Contains(t, env, "PATH="+filepath.Join(agent, "bin")+":/usr/bin:/bin\n")
	assert.NotContains(t, env, "PI_MODEL=")
	assert.Contains(t, env, "PI_OTHER=kept\n")

	t.Setenv("PATH", "/bin:"+filepath.Join(agent, "bin"))
	assert.Contains(t, strings.Join(shellEnv(), "\n")+"\n", "PATH=/bin:"+filepath.Join(agent, "bin")+"\n", "a PATH holding the folder is kept")

	t.Setenv("PI_CODING_AGENT_DIR", "~/agent")
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(home, "agent", "bin"), piBinDir())
}

func TestBashPwdThroughLink(t *testing.T) {
	real, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(real, link))
	res, err := call(t, context.Background(), AllTools(link, &Options{TempDir: t.TempDir()}), "bash", map[string]any{"command": "pwd"})
	require.NoError(t, err)
	assert.Equal(t, real+"\n", res.Text(), "the real path, as under Node, which does not set PWD")
}
