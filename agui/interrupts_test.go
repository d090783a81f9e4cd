package agui_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
	"github.com/pi-go/agentcore/hold"
)

type deployArgs struct {
	Service string `json:"service" jsonschema:"required"`
	Env     string `json:"env,omitempty"`
}

// deploy is a server tool a Gate holds.
var deploy = agentcore.NewTool("deploy", "Deploy a service.",
	func(_ context.Context, _ string, a deployArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("deployed " + a.Service + " to " + a.Env), nil
	})

// gated serves threads on fake whose Agents hold every deploy call, with
// one Gate per thread.
func gated(t *testing.T, fake *agentcoretest.Fake) string {
	t.Helper()
	srv, _ := server(t, fake, agui.Options{NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
		gate := hold.New(hold.Options{Policy: hold.Always(hold.Request{Title: "Deploy?"}, "deploy")})
		return agentcore.Options{
			Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{weather, deploy},
			Layers: []agentcore.Layer{gate},
		}, nil
	}})
	return srv.URL
}

// withResume adds RunAgentInput.resume to a body made by input.
func withResume(body, resume string) string {
	return strings.TrimSuffix(body, "}") + `,"resume":` + resume + "}"
}

// history is what a client holds after evs answered sent, as request JSON.
func history(t *testing.T, sent string, evs []event, more ...string) string {
	t.Helper()
	var out []string
	for _, m := range held(sentMessages(t, sent), evs) {
		data, err := json.Marshal(m)
		require.NoError(t, err)
		out = append(out, string(data))
	}
	return "[" + strings.Join(append(out, more...), ",") + "]"
}

// resultOf is the text of the result of call id the model was sent in its
// last request.
func resultOf(fake *agentcoretest.Fake, id string) (string, bool) {
	calls := fake.Calls()
	for _, m := range calls[len(calls)-1].Request.Messages {
		if r, ok := m.(*agentcore.ToolResultMessage); ok && r.ToolCallID == id {
			return r.Text(), r.IsError
		}
	}
	return "", false
}

func TestInterrupt(t *testing.T) {
	tc := agentcoretest.ToolCall
	holding := agentcoretest.ToolCallResponse(tc("c1", "deploy", deployArgs{Service: "web", Env: "prod"}), tc("c2", "weather", cityArgs{"Oslo"}))
	tests := []struct {
		name    string
		resume  string
		result  string
		isError bool
	}{
		{"approve", `[{"interruptId":"c1","status":"resolved","payload":{"approved":true}}]`, "deployed web to prod", false},
		{"approve with edits", `[{"interruptId":"c1","status":"resolved","payload":{"approved":true,"editedArgs":{"service":"web","env":"staging"}}}]`, "deployed web to staging", false},
		{"deny", `[{"interruptId":"c1","status":"resolved","payload":{"approved":false,"reason":"not on a Friday"}}]`, "not on a Friday", true},
		{"answer", `[{"interruptId":"c1","status":"resolved","payload":{"approved":true,"result":"done by hand"}}]`, "done by hand", false},
		{"cancel", `[{"interruptId":"c1","status":"cancelled"}]`, "The user dismissed this tool call without deciding; it did not run.", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := agentcoretest.New(holding, agentcoretest.TextResponse("Done."))
			url := gated(t, fake)
			sent := "[" + userMsg("u1", "deploy web") + "]"
			_, evs := post(t, t.Context(), url, input("t1", "r1", sent, ""))
			last := evs[len(evs)-1]
			require.Equal(t, "RUN_FINISHED", last.Type, types(evs))
			require.Equal(t, "interrupt", last.Outcome.Type)
			require.Len(t, last.Outcome.Interrupts, 1)
			in := last.Outcome.Interrupts[0]
			assert.Equal(t, "c1", in.ID)
			assert.Equal(t, "tool_call", in.Reason)
			assert.Equal(t, "c1", in.ToolCallID)
			assert.Equal(t, "Deploy?", in.Message)
			assert.Equal(t, "deploy", in.Metadata.Tool)
			assert.JSONEq(t, `{"service":"web","env":"prod"}`, string(in.Metadata.Arguments))
			assert.JSONEq(t, agui.ApprovalSchema, string(in.ResponseSchema))
			results := find(evs, "TOOL_CALL_RESULT")
			require.Len(t, results, 1, "the held call's placeholder is not shown")
			assert.Equal(t, "c2", results[0].ToolCallID)
			assert.Empty(t, find(evs, "MESSAGES_SNAPSHOT"))

			msgs := history(t, sent, evs)
			_, evs = post(t, t.Context(), url, withResume(input("t1", "r2", msgs, ""), tt.resume))
			last = evs[len(evs)-1]
			require.Equal(t, "RUN_FINISHED", last.Type, types(evs))
			assert.Equal(t, "success", last.Outcome.Type)
			results = find(evs, "TOOL_CALL_RESULT")
			require.NotEmpty(t, results)
			assert.Equal(t, "c1", results[0].ToolCallID, "the decided call's result, against its original ID")
			assert.Equal(t, []string{"RUN_STARTED", "TOOL_CALL_RESULT"}, types(evs)[:2])
			text, isError := resultOf(fake, "c1")
			assert.Contains(t, text, tt.result)
			assert.Equal(t, tt.isError, isError)
			step := slices.Index(types(evs), "STEP_STARTED")
			assert.NotContains(t, types(evs)[step:], "MESSAGES_SNAPSHOT", "the client is up to date before the first step")
			want := held(sentMessages(t, msgs), evs)
			assert.Equal(t, "c1", want[2].ToolCallID, "the results in call order")
			if tt.isError {
				assert.Equal(t, tt.result, want[2].Error)
			}
		})
	}
}

func TestInterruptContract(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(tc("c1", "deploy", deployArgs{Service: "web"}), tc("c2", "deploy", deployArgs{Service: "db"})),
		agentcoretest.TextResponse("Done."),
	)
	url := gated(t, fake)
	sent := "[" + userMsg("u1", "deploy all") + "]"
	_, evs := post(t, t.Context(), url, input("t1", "r1", sent, ""))
	require.Len(t, evs[len(evs)-1].Outcome.Interrupts, 2)
	msgs := history(t, sent, evs)
	refused := []struct {
		name string
		body string
		want string
	}{
		{"no resume", input("t1", "r2", history(t, sent, evs, userMsg("u2", "and?")), ""), "resume must answer every open interrupt"},
		{"partial", withResume(input("t1", "r2", msgs, ""), `[{"interruptId":"c1","status":"cancelled"}]`), `"c2"`},
		{"unknown", withResume(input("t1", "r2", msgs, ""), `[{"interruptId":"c1","status":"cancelled"},{"interruptId":"c2","status":"cancelled"},{"interruptId":"zz","status":"cancelled"}]`), `"zz" is not open`},
		{"twice", withResume(input("t1", "r2", msgs, ""), `[{"interruptId":"c1","status":"cancelled"},{"interruptId":"c1","status":"cancelled"}]`), "answered twice"},
		{"no payload", withResume(input("t1", "r2", msgs, ""), `[{"interruptId":"c1","status":"resolved"},{"interruptId":"c2","status":"cancelled"}]`), "approved"},
		{"bad edits", withResume(input("t1", "r2", msgs, ""), `[{"interruptId":"c1","status":"resolved","payload":{"approved":true,"editedArgs":{"env":"x"}}},{"interruptId":"c2","status":"cancelled"}]`), "service"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			status, evs := post(t, t.Context(), url, tt.body)
			require.Equal(t, http.StatusOK, status)
			assert.Equal(t, []string{"RUN_STARTED", "RUN_ERROR"}, types(evs))
			assert.Equal(t, "interrupt", evs[1].Code)
			assert.Contains(t, evs[1].Message, tt.want)
			assert.Equal(t, 1, fake.CallCount(), "nothing ran")
		})
	}
	t.Run("bad status", func(t *testing.T) {
		status, evs := post(t, t.Context(), url, withResume(input("t1", "r2", msgs, ""), `[{"interruptId":"c1","status":"maybe"}]`))
		assert.Equal(t, http.StatusBadRequest, status)
		assert.Contains(t, evs[0].Message, "status")
	})
	t.Run("then a good resume", func(t *testing.T) {
		_, evs := post(t, t.Context(), url, withResume(input("t1", "r3", msgs, ""),
			`[{"interruptId":"c1","status":"resolved","payload":{"approved":true}},{"interruptId":"c2","status":"resolved","payload":{"approved":false}}]`))
		require.Equal(t, "RUN_FINISHED", evs[len(evs)-1].Type, types(evs))
		assert.Equal(t, "success", evs[len(evs)-1].Outcome.Type)
		text, _ := resultOf(fake, "c1")
		assert.Equal(t, "deployed web to ", text)
		text, isError := resultOf(fake, "c2")
		assert.True(t, isError)
		assert.Equal(t, "The user denied this tool call.", text)
	})
	t.Run("a resume replayed", func(t *testing.T) {
		_, evs := post(t, t.Context(), url, withResume(input("t1", "r4", msgs, ""), `[{"interruptId":"c1","status":"resolved","payload":{"approved":true}}]`))
		assert.Equal(t, []string{"RUN_STARTED", "RUN_ERROR"}, types(evs), "nothing runs twice")
		assert.Equal(t, 2, fake.CallCount())
	})
}

func TestResumeWithoutGate(t *testing.T) {
	srv, _ := server(t, agentcoretest.New(), agui.Options{})
	status, evs := post(t, t.Context(), srv.URL, withResume(input("t1", "r1", "["+userMsg("u1", "hi")+"]", ""), `[{"interruptId":"x","status":"cancelled"}]`))
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, evs[0].Message, "raises no interrupts")
}

func TestInterruptAcrossRestart(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(tc("c1", "deploy", deployArgs{Service: "web", Env: "prod"})), agentcoretest.TextResponse("Done."))
	var (
		stored []agentcore.Message
		saved  []byte // the Gate's state, as a program stores it
		gates  []*hold.Gate
	)
	process := func() string {
		srv, _ := server(t, fake, agui.Options{
			NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
				gate := hold.New(hold.Options{Policy: hold.Always(hold.Request{Title: "Deploy?"}, "deploy")})
				if saved != nil {
					var s hold.State
					if err := json.Unmarshal(saved, &s); err != nil {
						return agentcore.Options{}, err
					}
					if err := gate.Restore(s); err != nil {
						return agentcore.Options{}, err
					}
				}
				gates = append(gates, gate)
				return agentcore.Options{
					Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{deploy},
					Layers: []agentcore.Layer{gate}, Messages: stored,
				}, nil
			},
			OnTranscript: func(_ string, m []agentcore.Message) { stored = m },
		})
		return srv.URL
	}
	sent := "[" + userMsg("u1", "deploy web") + "]"
	_, evs := post(t, t.Context(), process(), input("t1", "r1", sent, ""))
	require.Equal(t, "interrupt", evs[len(evs)-1].Outcome.Type, types(evs))
	var err error
	saved, err = json.Marshal(gates[0].State())
	require.NoError(t, err)

	// A new process: the client resumes with the messages it holds.
	_, evs = post(t, t.Context(), process(), withResume(input("t1", "r2", history(t, sent, evs), ""),
		`[{"interruptId":"c1","status":"resolved","payload":{"approved":true}}]`))
	require.Equal(t, "RUN_FINISHED", evs[len(evs)-1].Type, evs[len(evs)-1].Message)
	assert.Equal(t, "success", evs[len(evs)-1].Outcome.Type)
	text, isError := resultOf(fake, "c1")
	assert.False(t, isError)
	assert.Equal(t, "deployed web to prod", text)
	assert.Equal(t, "c1", find(evs, "TOOL_CALL_RESULT")[0].ToolCallID)
}
