package compaction_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/compaction"
)

// An Agent on an 8k model, with a Compactor as its layer, reads three
// large files in one run; before the fourth request its context is above
// the threshold, so it is compacted between the turns.
func ExampleCompactor() {
	reads := 0
	fake := agentcoretest.NewFunc(func(_ context.Context, c agentcoretest.Call) agentcoretest.Response {
		if isSummaryCall(c) {
			return agentcoretest.TextResponse("## Original Request\nRead three files.")
		}
		if reads < 3 {
			reads++
			path := fmt.Sprintf("file%d.txt", reads)
			return agentcoretest.ToolCallResponse(agentcoretest.ToolCall(path, "read", map[string]string{"path": path}))
		}
		return agentcoretest.TextResponse("All three files are read.")
	})
	read := agentcore.NewTool("read", "Read a file.", func(_ context.Context, _ string, args readArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult(strings.Repeat("line of "+args.Path+"\n", 240)), nil
	})
	model := agentcoretest.Model()
	model.ContextWindow, model.MaxTokens = 8192, 2048

	compactor := compaction.New(compaction.Options{
		OnEvent: func(_ context.Context, ev compaction.Event) {
			if end, ok := ev.(*compaction.EndEvent); ok && end.Result != nil {
				fmt.Printf("compacted (%s): %d -> %d tokens, %d messages summarized, %d kept\n",
					end.Reason, end.Result.TokensBefore, end.Result.TokensAfter, end.Result.Summarized, end.Result.Kept)
			}
		},
	})
	agent := agentcore.New(agentcore.Options{
		SystemPrompt: "You read files.", Model: model, StreamFn: fake.Stream, Tools: []agentcore.Tool{read},
		Layers: []agentcore.Layer{compactor},
	})
	if err := agent.Prompt(context.Background(), "Read the three files."); err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range agent.Messages() {
		fmt.Print(m.Role(), " ")
	}
	fmt.Println()
	// Output:
	// compacted (threshold): 3302 -> 1200 tokens, 5 messages summarized, 2 kept
	// system compactionSummary assistant toolResult assistant
}
