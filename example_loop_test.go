package agentcore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// RunLoop is the stateless engine without the Agent: give it prompts, a
// context and a configuration, and range over its events. The stream is
// observational: the loop does not wait for the reader (events queue until
// read) and nothing here is awaited like an Agent listener. The channel is
// closed after agent_end; Wait returns the messages the run added, which
// the caller keeps however it likes.
func ExampleRunLoop() {
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "edit", map[string]string{"file": "main.go"})),
		agentcoretest.TextResponse("Edited."),
	)
	history := []agentcore.Message{agentcore.InitialSystemMessage("You edit files.", nil)}
	cfg := agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: fake.Stream}
	actx := agentcore.AgentContext{Messages: history, Tools: []agentcore.Tool{editTool()}}

	run, err := agentcore.RunLoop(context.Background(), []agentcore.Message{agentcore.UserText("Fix main.go.")}, actx, cfg)
	if err != nil {
		fmt.Println("error:", err) // ErrNoStreamFn, ErrInvalidTool: nothing ran
		return
	}
	var types []string
	for ev := range run.Events() {
		if _, ok := ev.(*agentcore.MessageUpdateEvent); !ok {
			types = append(types, ev.Type())
		}
	}
	fmt.Println(strings.Join(types, "\n"))

	added, err := run.Wait()
	if err != nil {
		fmt.Println("the run failed:", err) // a *RunError, or a hook's error
		return
	}
	// The history declared no tools, so the run first declared edit in a
	// system message of its own, then added the prompt.
	var roles []string
	for _, m := range added {
		roles = append(roles, m.Role())
	}
	fmt.Println(strings.Join(roles, " "))
	fmt.Println("declared:", agentcore.CurrentTools(added)[0].Name)
	// The history slice was not touched: appending the run is the caller's job.
	history = append(history, added...)
	fmt.Println(len(history), "messages")
	// Output:
	// agent_start
	// turn_start
	// message_start
	// message_end
	// message_start
	// message_end
	// message_start
	// message_end
	// tool_execution_start
	// tool_execution_end
	// message_start
	// message_end
	// turn_end
	// turn_start
	// message_start
	// message_end
	// turn_end
	// agent_end
	// system user assistant toolResult assistant
	// declared: edit
	// 6 messages
}

// RunLoopContinue resumes from a context that ends in a user or tool-result
// message, without adding one. A context ending in an assistant message is
// refused: providers do not accept a request that ends with their own turn.
func ExampleRunLoopContinue() {
	cfg := agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(agentcoretest.TextResponse("Hi again.")).Stream}
	answered := agentcore.AgentContext{Messages: []agentcore.Message{
		agentcore.UserText("hi"),
		&agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "hello"}}, StopReason: agentcore.StopStop},
	}}
	_, err := agentcore.RunLoopContinue(context.Background(), answered, cfg)
	fmt.Println(err)

	pending := agentcore.AgentContext{Messages: answered.Messages[:1]}
	run, err := agentcore.RunLoopContinue(context.Background(), pending, cfg)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	for range run.Events() {
	}
	added, _ := run.Wait()
	fmt.Println(added[0].(*agentcore.AssistantMessage).Text())
	// Output:
	// agentcore: cannot continue from message role: assistant
	// Hi again.
}

// A caller that wants only the outcome calls Wait without reading Events:
// the run's events are dropped as they come. A failed run is a RunError
// holding the final message.
func ExampleLoopRun_Wait() {
	fake := agentcoretest.New(agentcoretest.ErrorResponse("503 service unavailable"))
	run, err := agentcore.RunLoop(context.Background(), []agentcore.Message{agentcore.UserText("Hi.")}, agentcore.AgentContext{},
		agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	if err != nil {
		fmt.Println("not started:", err)
		return
	}
	added, err := run.Wait()
	fmt.Println(len(added), "messages added")
	if runErr, ok := errors.AsType[*agentcore.RunError](err); ok {
		fmt.Println("stop reason:", runErr.Message.StopReason, "| error:", runErr.Message.ErrorMessage)
		fmt.Println("retryable:", agentcore.IsRetryable(err))
	}
	// Output:
	// 2 messages added
	// stop reason: error | error: 503 service unavailable
	// retryable: true
}
