package agui_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
	"github.com/pi-go/agentcore/session"
)

// gatedHandler is a handler keeping its threads in dir whose model calls
// report on started, then wait for release before answering from fake.
func gatedHandler(dir string, fake *agentcoretest.Fake, started chan<- struct{}, release <-chan struct{}) *agui.Handler {
	return agui.New(agui.Options{
		SessionDir: dir,
		NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
			stream := func(ctx context.Context, m agentcore.Model, req agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
				select {
				case started <- struct{}{}:
				case <-ctx.Done():
				}
				select {
				case <-release:
				case <-ctx.Done():
				}
				return fake.Stream(ctx, m, req, o)
			}
			return agentcore.Options{Model: agentcoretest.Model(), StreamFn: stream}, nil
		},
	})
}

// rawPost sends body to url and returns the status, reading the whole
// answer; it is safe on any goroutine.
func rawPost(ctx context.Context, url, body string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// TestSessionFirstRequestRace: two servers sharing a session folder that
// get the first request of a thread at once: exactly one serves it, the
// other answers 409, and the thread has one file.
func TestSessionFirstRequestRace(t *testing.T) {
	const rounds = 20
	responses := make([]agentcoretest.Response, rounds)
	for i := range responses {
		responses[i] = agentcoretest.TextResponse("Hi.")
	}
	fake := agentcoretest.New(responses...)
	dir := t.TempDir()
	for i := range rounds {
		started := make(chan struct{}, 2)
		release := make(chan struct{})
		a := httptest.NewServer(gatedHandler(dir, fake, started, release))
		b := httptest.NewServer(gatedHandler(dir, fake, started, release))
		body := input(fmt.Sprintf("t%d", i), "r1", "["+userMsg("u1", "hello")+"]", "")
		statuses := make(chan int, 2)
		for _, srv := range []*httptest.Server{a, b} {
			go func() {
				status, err := rawPost(t.Context(), srv.URL, body)
				if err != nil {
					status = -1
				}
				statuses <- status
			}()
		}
		// The loser answers while the winner waits in its model call;
		// two model calls are two winners.
		var got []int
		for streams := 0; len(got) == 0 && streams < 2; {
			select {
			case s := <-statuses:
				got = append(got, s)
			case <-started:
				streams++
			}
		}
		close(release)
		for len(got) < 2 {
			got = append(got, <-statuses)
		}
		a.Close()
		b.Close()
		assert.ElementsMatch(t, []int{409, 200}, got, "round %d", i)
	}
	files, err := session.List(dir)
	require.NoError(t, err)
	assert.Equal(t, rounds, len(files), "one file a thread")
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Equal(t, rounds, len(left), "no lock left behind")
}

// TestSessionFileDeleted: a thread whose file an operator deleted while
// the handler held the thread starts anew from the messages the client
// sends, in a new file, rather than failing.
func TestSessionFileDeleted(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("Hi."), agentcoretest.TextResponse("Hi again."), agentcoretest.TextResponse("Still here."))
	dir := t.TempDir()
	srv := httptest.NewServer(sessionHandler(dir, fake))
	defer srv.Close()
	sent := "[" + userMsg("u1", "hello") + "]"
	_, evs := post(t, t.Context(), srv.URL, input("t1", "r1", sent, ""))
	require.Equal(t, "success", evs[len(evs)-1].Outcome.Type)

	files, err := session.List(dir)
	require.NoError(t, err)
	require.Len(t, files, 1)
	require.NoError(t, os.Remove(files[0].Path))

	msgs := history(t, sent, evs, userMsg("u2", "again"))
	status, evs := post(t, t.Context(), srv.URL, input("t1", "r2", msgs, ""))
	require.Equal(t, 200, status, evs[0].Message)
	require.Equal(t, "success", evs[len(evs)-1].Outcome.Type, types(evs))
	assert.Len(t, fake.Calls()[1].Request.Messages, 4, "the model reads the client's conversation")

	files, err = session.List(dir)
	require.NoError(t, err)
	require.Len(t, files, 1, "a new file")
	msgs = history(t, msgs, evs, userMsg("u3", "still?"))
	_, evs = post(t, t.Context(), srv.URL, input("t1", "r3", msgs, ""))
	require.Equal(t, "success", evs[len(evs)-1].Outcome.Type, types(evs))
	s, err := session.Open(files[0].Path, &session.Options{ReadOnly: true})
	require.NoError(t, err)
	defer s.Close()
	assert.Len(t, s.Context().Messages, 6, "the new file holds the whole conversation")
}

// TestSessionFileDeletedDuringRun: a file deleted while a run records
// in it fails that run's records, and the next request starts anew from
// the client's messages in a new file.
func TestSessionFileDeletedDuringRun(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("Hi."), agentcoretest.TextResponse("Hi again."), agentcoretest.TextResponse("Still here."))
	dir := t.TempDir()
	srv := httptest.NewServer(agui.New(agui.Options{
		SessionDir: dir,
		NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
			stream := func(ctx context.Context, m agentcore.Model, req agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
				if fake.CallCount() == 1 { // the second run's call: the operator deletes the file
					files, _ := session.List(dir)
					for _, f := range files {
						_ = os.Remove(f.Path)
					}
				}
				return fake.Stream(ctx, m, req, o)
			}
			return agentcore.Options{Model: agentcoretest.Model(), StreamFn: stream}, nil
		},
	}))
	defer srv.Close()
	sent := "[" + userMsg("u1", "hello") + "]"
	_, evs := post(t, t.Context(), srv.URL, input("t1", "r1", sent, ""))
	require.Equal(t, "success", evs[len(evs)-1].Outcome.Type)

	msgs := history(t, sent, evs, userMsg("u2", "again"))
	_, evs = post(t, t.Context(), srv.URL, input("t1", "r2", msgs, ""))

	msgs = history(t, msgs, evs, userMsg("u3", "still?"))
	status, evs := post(t, t.Context(), srv.URL, input("t1", "r3", msgs, ""))
	require.Equal(t, 200, status, evs[0].Message)
	require.Equal(t, "success", evs[len(evs)-1].Outcome.Type, types(evs))
	files, err := session.List(dir)
	require.NoError(t, err)
	require.Len(t, files, 1, "a new file")
	s, err := session.Open(files[0].Path, &session.Options{ReadOnly: true})
	require.NoError(t, err)
	defer s.Close()
	assert.Len(t, s.Context().Messages, 6, "the new file holds the conversation the client sent")
}
