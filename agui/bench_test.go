package agui_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
)

// BenchmarkRun serves one run of a streamed answer (20 deltas) and a tool
// call, from request to RUN_FINISHED, without a network.
func BenchmarkRun(b *testing.B) {
	b.ReportAllocs()
	tc := agentcoretest.ToolCall
	fake := agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		if len(call.Request.Messages) > 0 {
			if _, ok := call.Request.Messages[len(call.Request.Messages)-1].(*agentcore.ToolResultMessage); ok {
				return agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: strings.Repeat("word ", 40)}}, Chunks: 20}
			}
		}
		return agentcoretest.ToolCallResponse(tc("c1", "weather", cityArgs{"Paris"}))
	})
	h := agui.New(agui.Options{NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
		return agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{weather}}, nil
	}})
	for i := 0; b.Loop(); i++ {
		thread := fmt.Sprint("t", i)
		body := input(thread, "r", "["+userMsg("u", "weather?")+"]", "")
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if !strings.Contains(rec.Body.String(), `"RUN_FINISHED"`) {
			b.Fatal(rec.Body.String())
		}
		h.Forget(thread)
	}
}
