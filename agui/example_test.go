package agui_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
)

// A handler serving an agent on the fake model, and what a client reads.
func ExampleNew() {
	fake := agentcoretest.New(agentcoretest.TextResponse("Hello!"))
	h := agui.New(agui.Options{
		NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
			return agentcore.Options{SystemPrompt: "Be brief.", Model: agentcoretest.Model(), StreamFn: fake.Stream}, nil
		},
	})
	srv := httptest.NewServer(h)
	defer srv.Close()

	body := `{"threadId":"t1","runId":"r1","messages":[{"id":"u1","role":"user","content":"Hi"}]}`
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type  string `json:"type"`
			Delta string `json:"delta"`
		}
		_ = json.Unmarshal([]byte(data), &ev)
		fmt.Println(strings.TrimSpace(ev.Type + " " + ev.Delta))
	}
	// Output:
	// RUN_STARTED
	// STEP_STARTED
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT Hello!
	// TEXT_MESSAGE_END
	// STEP_FINISHED
	// RUN_FINISHED
}
