// Package acptest drives an ACP server with the official TypeScript
// client (@agentclientprotocol/sdk 2.4.0, pinned by the lock file of its
// client folder), for the tests of package acp and of programs that serve
// with it. It needs node and npm, and the npm registry: without them a
// test is skipped, or fails when the environment sets [RequireNode] (CI
// does).
//
// The client, client.mjs, checks every message the server sends against
// the SDK's zod schema of its kind; the report's "invalid" lists the
// violations. Its scenarios are package acp's TestOfficialClient's; the
// mode "example" runs one prompt, "hello", in a new session.
package acptest

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// RequireNode, when set in the environment, makes a missing node, npm or
// registry a test failure instead of a skip.
const RequireNode = "ACP_REQUIRE_NODE"

//go:embed client/package.json client/package-lock.json client/client.mjs
var files embed.FS

// skipOrFail skips the test with why, or fails it under RequireNode.
func skipOrFail(t testing.TB, why string) {
	t.Helper()
	if os.Getenv(RequireNode) != "" {
		t.Fatal(why)
	}
	t.Skip(why + " (set " + RequireNode + "=1 to make this a failure)")
}

// Install installs the client's packages, as its lock file pins them,
// into a scratch folder of t with npm ci, and returns the folder.
func Install(t testing.TB) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipOrFail(t, "the ACP client test needs "+tool+" on PATH")
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "npm", "ping", "--fetch-retries=0", "--fetch-timeout=5000", "--loglevel=error").CombinedOutput(); err != nil {
		skipOrFail(t, fmt.Sprintf("npm cannot reach its registry: %v\n%s", err, out))
	}
	dir := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json", "client.mjs"} {
		data, err := files.ReadFile("client/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.CommandContext(t.Context(), "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		skipOrFail(t, "npm install @agentclientprotocol/sdk failed: "+err.Error()+"\n"+string(out))
	}
	return dir
}

// Run runs the client installed in dir with args (the session's working
// directory, then the mode and its arguments), serving it with serve on
// the client's standard output and input, and returns its report. It
// fails the test when the client or serve fails. serve must return when
// its reader ends.
func Run(t testing.TB, dir string, serve func(ctx context.Context, rw io.ReadWriter) error, args ...string) map[string]any {
	t.Helper()
	report := filepath.Join(t.TempDir(), "report.json")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{"client.mjs", report}, args...)...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The client's output ends when it exits, and serve with it; Wait,
	// which closes the pipes, comes after.
	serr := serve(ctx, struct {
		io.Reader
		io.Writer
	}{out, in})
	in.Close()
	werr := cmd.Wait()
	if serr != nil {
		t.Fatalf("serving the client: %v\n%s", serr, stderr.String())
	}
	if werr != nil {
		t.Fatalf("client.mjs: %v\n%s", werr, stderr.String())
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("client.mjs wrote no report: %v\n%s", err, stderr.String())
	}
	var r map[string]any
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}
