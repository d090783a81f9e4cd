package codingtools

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// sessionVariables are the variables pi's bash leaves out of the
// environment it inherits: they describe a pi session, which a command
// run by these tools is not part of.
var sessionVariables = []string{"PI_SESSION_ID", "PI_SESSION_FILE", "PI_PROVIDER", "PI_MODEL", "PI_REASONING_LEVEL"}

// piBinDir is the folder pi puts first on bash's PATH: "bin" in pi's agent
// directory ($PI_CODING_AGENT_DIR, else ~/.pi/agent).
func piBinDir() string {
	dir := os.Getenv("PI_CODING_AGENT_DIR")
	home, _ := os.UserHomeDir()
	switch {
	case dir == "~":
		dir = home
	case strings.HasPrefix(dir, "~/"):
		dir = filepath.Join(home, dir[2:])
	case dir == "":
		dir = filepath.Join(home, ".pi", "agent")
	}
	return filepath.Join(dir, "bin")
}

// shellEnv is the environment of bash's commands when [Options].Env is
// nil, as pi's: the process's, with pi's bin folder first on PATH (unless
// PATH holds it) and without [sessionVariables]. PWD is inherited, not
// set to the working directory (Node's spawn does not set it), so a shell
// started in a directory reached through a link reports its real path.
func shellEnv() []string {
	env := os.Environ()
	pathKey := "PATH"
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); strings.EqualFold(k, "path") {
			pathKey = k
			break
		}
	}
	bin := piBinDir()
	out := make([]string, 0, len(env)+1)
	sawPath := false
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case slices.Contains(sessionVariables, k):
			continue
		case k == pathKey:
			if sawPath {
				continue
			}
			sawPath = true
			kv = pathKey + "=" + withBinDir(v, bin)
		}
		out = append(out, kv)
	}
	if !sawPath {
		out = append(out, pathKey+"="+bin)
	}
	return out
}

// withBinDir is path with bin first, unless one of its entries is bin.
func withBinDir(path, bin string) string {
	if slices.Contains(strings.Split(path, string(os.PathListSeparator)), bin) {
		return path
	}
	if path == "" {
		return bin
	}
	return bin + string(os.PathListSeparator) + path
}
