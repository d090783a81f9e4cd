package agentcore_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// BashExecution is an app-defined message: a command the user ran
// themselves, which should live in the transcript (and in the session file)
// beside the four standard roles. Any type with a Role method is a
// [agentcore.Message]; its JSON must carry the role in a "role" field.
type BashExecution struct {
	Command   string `json:"command"`
	Output    string `json:"output"`
	Timestamp int64  `json:"timestamp"`
}

// Role returns "bashExecution".
func (*BashExecution) Role() string { return "bashExecution" }

// MarshalJSON writes the message with its role.
func (b *BashExecution) MarshalJSON() ([]byte, error) {
	type plain BashExecution
	return json.Marshal(struct {
		Role string `json:"role"`
		*plain
	}{b.Role(), (*plain)(b)})
}

// ConvertToLLM is the boundary between the transcript and the model: it
// runs before every request and decides what the model sees of app-defined
// messages. Here a BashExecution becomes a user message; anything else
// non-standard is dropped, as [agentcore.DefaultConvertToLLM] does.
func ExampleHooks_convertToLLM() {
	fake := agentcoretest.New(agentcoretest.TextResponse("The build passed."))
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream,
		Hooks: agentcore.Hooks{
			ConvertToLLM: func(ctx context.Context, messages []agentcore.Message) ([]agentcore.Message, error) {
				out := make([]agentcore.Message, 0, len(messages))
				for _, m := range messages {
					switch m := m.(type) {
					case *BashExecution:
						out = append(out, &agentcore.UserMessage{
							Content:   agentcore.Text("I ran `" + m.Command + "`:\n" + m.Output),
							Timestamp: m.Timestamp,
						})
					default:
						if agentcore.IsStandard(m) {
							out = append(out, m)
						}
					}
				}
				return out, nil
			},
		},
	})
	run := &BashExecution{Command: "go build ./...", Output: "ok"}
	if err := agent.PromptMessages(context.Background(), run, agentcore.UserText("Did it work?")); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Print("transcript:")
	for _, m := range agent.Messages() {
		fmt.Print(" ", m.Role())
	}
	fmt.Print("\nthe model saw:")
	for _, m := range fake.Calls()[0].Request.Messages {
		fmt.Printf(" %s %q", m.Role(), m.(*agentcore.UserMessage).Content.Text())
	}
	fmt.Println()
	// Output:
	// transcript: bashExecution user assistant
	// the model saw: user "I ran `go build ./...`:\nok" user "Did it work?"
}

// A MessageRegistry decodes app-defined messages by role, so a transcript
// holding them round-trips through JSON. A role nobody registered decodes
// to a [*agentcore.CustomMessage] that keeps every field, so a transcript
// written by a newer program survives an older one unchanged.
func ExampleMessageRegistry() {
	var registry agentcore.MessageRegistry
	registry.Register("bashExecution", func(data []byte) (agentcore.Message, error) {
		var b BashExecution
		err := json.Unmarshal(data, &b)
		return &b, err
	})

	transcript := []agentcore.Message{
		&agentcore.UserMessage{Content: agentcore.Text("hi"), Timestamp: 1},
		&BashExecution{Command: "ls", Output: "go.mod", Timestamp: 2},
	}
	data, err := json.Marshal(transcript)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	// A message from some other program, with a role this one does not know.
	data = append(data[:len(data)-1], []byte(`,{"role":"bookmark","label":"v1","timestamp":3}]`)...)
	fmt.Println(string(data))

	decoded, err := registry.UnmarshalMessages(data)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	for _, m := range decoded {
		fmt.Printf("%T\n", m)
	}
	again, _ := json.Marshal(decoded)
	fmt.Println("round trip equal:", string(again) == string(data))
	// Output:
	// [{"role":"user","content":"hi","timestamp":1},{"role":"bashExecution","command":"ls","output":"go.mod","timestamp":2},{"role":"bookmark","label":"v1","timestamp":3}]
	// *agentcore.UserMessage
	// *agentcore_test.BashExecution
	// *agentcore.CustomMessage
	// round trip equal: true
}

// Usage's optional counts and Cost's TotalFromProvider are pointers, nil
// when the provider does not report them; %v and %+v print their values.
func ExampleUsage() {
	reasoning, fromProvider := int64(40), true
	u := agentcore.Usage{Input: 120, Output: 80, Reasoning: &reasoning, TotalTokens: 200,
		Cost: agentcore.Cost{Input: 0.0003, Output: 0.0008, Total: 0.0011, TotalFromProvider: &fromProvider}}
	fmt.Printf("%+v\n", u)
	// Output:
	// {Input:120 Output:80 CacheRead:0 CacheWrite:0 CacheWrite1h:<nil> Reasoning:40 TotalTokens:200 Cost:{Input:0.0003 Output:0.0008 CacheRead:0 CacheWrite:0 Total:0.0011 TotalFromProvider:true}}
}
