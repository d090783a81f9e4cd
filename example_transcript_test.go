package agentcore_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// The system prompt lives in the transcript. The leading system message is
// the base prompt; later ones append content and patch named sections
// (a Removed section drops one). Replaying them gives the prompt the model
// sees at that point of the history.
func ExampleCurrentSystemPrompt() {
	transcript := []agentcore.Message{
		&agentcore.SystemMessage{
			Content:  agentcore.Text("You are a coding agent."),
			Sections: agentcore.Sections{{Name: "cwd", Text: "cwd: /src/app"}, {Name: "skills", Text: "skills: go"}},
		},
		agentcore.UserText("cd ../lib"),
		&agentcore.SystemMessage{
			Content:  agentcore.Text("Never push to main."),
			Sections: agentcore.Sections{{Name: "cwd", Text: "cwd: /src/lib"}, {Name: "skills", Removed: true}},
		},
	}
	fmt.Println(agentcore.CurrentSystemPrompt(transcript))
	wire, _ := json.Marshal(transcript[2])
	fmt.Println(string(wire))
	// Output:
	// You are a coding agent.
	//
	// Never push to main.
	//
	// cwd: /src/lib
	// {"role":"system","content":"Never push to main.","sections":{"cwd":"cwd: /src/lib","skills":null},"timestamp":0}
}

// The tools the model may call are declared in the transcript too. Before
// every request the loop compares the executable tools with the ones the
// transcript declares, and declares the difference in a system message, so
// that replaying any prefix of the transcript shows what the model could
// call at that point.
func ExampleAgent_SetTools() {
	tool := func(name string) agentcore.Tool {
		return agentcore.Tool{Name: name, Description: "The " + name + " tool."}
	}
	fake := agentcoretest.New(agentcoretest.TextResponse("ok"), agentcoretest.TextResponse("ok"))
	agent := agentcore.New(agentcore.Options{
		SystemPrompt: "Base prompt.",
		Model:        agentcoretest.Model(),
		StreamFn:     fake.Stream,
		Tools:        []agentcore.Tool{tool("read"), tool("bash")},
	})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if ev, ok := ev.(*agentcore.MessageEndEvent); ok {
			if sys, ok := ev.Message.(*agentcore.SystemMessage); ok {
				fmt.Printf("declared: +%v -%v\n", toolNames(sys.ToolsAdded), sys.ToolsRemoved)
			}
		}
	})
	ctx := context.Background()
	_ = agent.Prompt(ctx, "first") // the leading system message already declares read and bash

	agent.SetTools([]agentcore.Tool{tool("read"), tool("edit")})
	_ = agent.Prompt(ctx, "second")

	st := agent.State()
	fmt.Println("prompt:", st.SystemPrompt)
	fmt.Println("tools now:", toolNames(agentcore.CurrentTools(st.Messages)))
	// Output:
	// declared: +[edit] -[{bash}]
	// prompt: Base prompt.
	// tools now: [read edit]
}

func toolNames(decls []agentcore.ToolDeclaration) []string {
	out := make([]string, len(decls))
	for i, d := range decls {
		out[i] = d.Name
	}
	return out
}
