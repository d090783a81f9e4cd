package agui_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
)

// countingAgents is a NewAgent that answers every run with text and
// counts its calls.
func countingAgents(calls *atomic.Int32, tools ...agentcore.Tool) func(context.Context, *agui.RunInput) (agentcore.Options, error) {
	return func(context.Context, *agui.RunInput) (agentcore.Options, error) {
		calls.Add(1)
		fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
			return agentcoretest.TextResponse("ok")
		})
		return agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: tools}, nil
	}
}

// serve runs one request on h without a network and returns its status.
func serve(h *agui.Handler, body string) int {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body)))
	return rec.Code
}

func TestRefusedRequestMakesNoThread(t *testing.T) {
	var calls atomic.Int32
	h := agui.New(agui.Options{NewAgent: countingAgents(&calls, weather)})
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 3000) + `{}` + strings.Repeat("}}", 3000)
	tests := []struct {
		name     string
		body     string
		newAgent bool // NewAgent must be called to know the request is refused
	}{
		{"nothing to run", input("n1", "r", `[{"id":"a","role":"assistant","content":"hi"}]`, ""), false},
		{"bad schema", input("n1", "r", "["+userMsg("u", "hi")+"]", `[{"name":"f","parameters":`+deep+`}]`), false},
		{"clash with a server tool", input("n1", "r", "["+userMsg("u", "hi")+"]", `[{"name":"weather"}]`), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := calls.Load()
			assert.Equal(t, http.StatusBadRequest, serve(h, tt.body))
			assert.Equal(t, tt.newAgent, calls.Load() > before, "NewAgent called")
			assert.Nil(t, h.Agent("n1"), "no thread is held")
		})
	}
	assert.Equal(t, http.StatusOK, serve(h, input("n1", "r", "["+userMsg("u", "hi")+"]", "")))
	assert.NotNil(t, h.Agent("n1"))
}

func TestMaxThreadsDropsTheLeastRecentlyUsed(t *testing.T) {
	var calls atomic.Int32
	var dropped []string
	h := agui.New(agui.Options{NewAgent: countingAgents(&calls), MaxThreads: 2, OnDrop: func(id string) { dropped = append(dropped, id) }})
	for _, id := range []string{"t1", "t2", "t1", "t3"} {
		require.Equal(t, http.StatusOK, serve(h, input(id, "r", "["+userMsg("u-"+id+fmt.Sprint(calls.Load()), "hi")+"]", "")))
	}
	assert.Equal(t, []string{"t2"}, dropped, "t2 was idle the longest")
	assert.Nil(t, h.Agent("t2"))
	assert.NotNil(t, h.Agent("t1"))
	assert.NotNil(t, h.Agent("t3"))
	assert.Equal(t, int32(3), calls.Load())
	require.Equal(t, http.StatusOK, serve(h, input("t2", "r", "["+userMsg("u", "back")+"]", "")))
	assert.Equal(t, int32(4), calls.Load(), "the dropped thread's next request makes a new Agent")
}

func TestMaxThreadsAllRunning(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	h := agui.New(agui.Options{MaxThreads: 1, NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
		fake := agentcoretest.NewFunc(func(ctx context.Context, _ agentcoretest.Call) agentcoretest.Response {
			close(entered)
			<-release
			return agentcoretest.TextResponse("done")
		})
		return agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream}, nil
	}})
	done := make(chan int)
	go func() { done <- serve(h, input("t1", "r", "["+userMsg("u", "hi")+"]", "")) }()
	<-entered
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(input("t2", "r", "["+userMsg("u", "hi")+"]", ""))))
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code)
	assert.Contains(t, rec.Body.String(), "running threads")
	close(release)
	assert.Equal(t, http.StatusOK, <-done)
}

func TestIdleThreadsExpire(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		var dropped []string
		h := agui.New(agui.Options{NewAgent: countingAgents(&calls), IdleTimeout: time.Minute, OnDrop: func(id string) { dropped = append(dropped, id) }})
		require.Equal(t, http.StatusOK, serve(h, input("t1", "r1", "["+userMsg("u1", "hi")+"]", "")))
		time.Sleep(30 * time.Second)
		require.Equal(t, http.StatusOK, serve(h, input("t2", "r1", "["+userMsg("u1", "hi")+"]", "")))
		assert.Empty(t, dropped, "t1 is idle for 30s only")
		time.Sleep(31 * time.Second)
		require.Equal(t, http.StatusOK, serve(h, input("t3", "r1", "["+userMsg("u1", "hi")+"]", "")))
		assert.Equal(t, []string{"t1"}, dropped)
		assert.Nil(t, h.Agent("t1"))
		assert.NotNil(t, h.Agent("t2"))
		require.Equal(t, http.StatusOK, serve(h, input("t1", "r2", "["+userMsg("u2", "again")+"]", "")))
		assert.Equal(t, int32(4), calls.Load(), "t1 is made again by NewAgent")
	})
}
