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
func ExampleCurrentSystemMessage() {
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
	fmt.Println(agentcore.SystemPromptText(agentcore.CurrentSystemMessage(transcript)))
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

// SetMessages replaces the transcript between runs: here a session layer
// restores a saved conversation, and the next prompt continues it.
func ExampleAgent_SetMessages() {
	fake := agentcoretest.New(agentcoretest.TextResponse("You said your name is Ada."))
	agent := agentcore.New(agentcore.Options{SystemPrompt: "You remember.", Model: agentcoretest.Model(), StreamFn: fake.Stream})
	saved := []agentcore.Message{
		agentcore.UserText("My name is Ada."),
		&agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "Nice to meet you."}}, StopReason: agentcore.StopStop},
	}
	agent.SetMessages(append(agent.Messages(), saved...)) // keep the system message first
	if err := agent.Prompt(context.Background(), "What is my name?"); err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(len(agent.Messages()), "messages; the model saw", len(fake.Calls()[0].Request.Messages))
	// Output:
	// 5 messages; the model saw 4
}

// Reset clears the transcript down to the replayed system message (the
// prompt and the tools) and empties both queues; during a run it fails with
// ErrBusy and changes nothing.
func ExampleAgent_Reset() {
	fake := agentcoretest.New(agentcoretest.TextResponse("Hello."))
	agent := agentcore.New(agentcore.Options{SystemPrompt: "Be brief.", Model: agentcoretest.Model(), StreamFn: fake.Stream})
	if err := agent.Prompt(context.Background(), "Hi."); err != nil {
		fmt.Println("error:", err)
	}
	agent.Steer(agentcore.UserText("queued"))
	fmt.Println(len(agent.Messages()), "messages, queued:", agent.HasQueued())
	if err := agent.Reset(); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Println(len(agent.Messages()), "message, queued:", agent.HasQueued(), "| prompt:", agent.State().SystemPrompt)
	// Output:
	// 3 messages, queued: true
	// 1 message, queued: false | prompt: Be brief.
}
