package agentcoretest

import (
	"context"
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/pi-go/agentcore"
)

// play streams resp to w as a provider would, and ends it aborted as soon
// as ctx is done. The message it builds is the partial of every event.
// Pointer blocks in resp.Content are played as their values; a nil one
// ends the response as an error ([agentcore.ValueBlocks]).
func play(ctx context.Context, w *agentcore.StreamWriter, model agentcore.Model, resp Response) {
	content, err := agentcore.ValueBlocks(resp.Content)
	if err != nil {
		resp = Response{StopReason: agentcore.StopError, Err: err, NoStart: true}
	}
	resp.Content = content
	msg := &agentcore.AssistantMessage{
		Content: make([]agentcore.ContentBlock, 0, len(resp.Content)), API: model.API, Provider: model.Provider, Model: model.ID,
		Usage: resp.Usage, StopReason: agentcore.StopStop, Timestamp: time.Now().UnixMilli(),
	}
	if resp.OnStart != nil {
		resp.OnStart(ctx)
	}
	aborted := func() {
		msg.StopReason, msg.ErrorMessage = agentcore.StopAborted, AbortedText
		w.Error(msg)
	}
	if ctx.Err() != nil {
		aborted()
		return
	}
	reason := stopReason(resp)
	failing := reason == agentcore.StopError || reason == agentcore.StopAborted
	if !failing || !resp.NoStart {
		if !w.Push(&agentcore.StartEvent{Partial: msg}) {
			return
		}
		for _, block := range resp.Content {
			if !streamBlock(ctx, w, msg, block, resp) {
				if ctx.Err() != nil {
					aborted()
				}
				return
			}
		}
		if resp.Hang {
			<-ctx.Done()
			aborted()
			return
		}
	}
	msg.StopReason = reason
	if !failing {
		w.Done(msg)
		return
	}
	msg.ErrorMessage, msg.Err = resp.ErrorMessage, resp.Err
	switch {
	case msg.ErrorMessage != "":
	case resp.Err != nil:
		msg.ErrorMessage = resp.Err.Error()
	default:
		msg.ErrorMessage = "fake model error"
	}
	w.Error(msg)
}

// stopReason is resp's stop reason, defaulted.
func stopReason(resp Response) agentcore.StopReason {
	if resp.StopReason != "" {
		return resp.StopReason
	}
	for _, b := range resp.Content {
		if _, ok := b.(agentcore.ToolCall); ok {
			return agentcore.StopToolUse
		}
	}
	return agentcore.StopStop
}

// streamBlock appends block to msg and streams its events, each after
// resp.ChunkDelay. It reports whether to go on: false when ctx is done or
// the consumer stopped.
func streamBlock(ctx context.Context, w *agentcore.StreamWriter, msg *agentcore.AssistantMessage, block agentcore.ContentBlock, resp Response) bool {
	i := len(msg.Content)
	push := func(ev agentcore.AssistantEvent) bool {
		return pause(ctx, resp.ChunkDelay) && w.Push(ev)
	}
	switch b := block.(type) {
	case agentcore.TextBlock:
		return streamText(push, msg, b, b.Text, false, resp.Chunks)
	case agentcore.ThinkingBlock:
		return streamText(push, msg, b, b.Thinking, true, resp.Chunks)
	case agentcore.ToolCall:
		if len(b.Arguments) == 0 {
			b.Arguments = json.RawMessage("{}")
		}
		msg.Content = append(msg.Content, agentcore.ToolCall{ID: b.ID, Name: b.Name, Arguments: json.RawMessage("{}")})
		if !push(&agentcore.ToolCallStartEvent{ContentIndex: i, Partial: msg}) {
			return false
		}
		// The arguments arrive in one delta, so the partial shows them whole.
		msg.Content[i] = agentcore.ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Arguments}
		if !push(&agentcore.ToolCallDeltaEvent{ContentIndex: i, Delta: string(b.Arguments), Partial: msg}) {
			return false
		}
		msg.Content[i] = b
		return push(&agentcore.ToolCallEndEvent{ContentIndex: i, ToolCall: b, Partial: msg})
	default:
		msg.Content = append(msg.Content, block)
		return true
	}
}

// streamText appends block, a text or a thinking block holding text, to
// msg and pushes its start event, a delta per chunk, the partial showing
// the text so far, and its end event, the partial showing block.
func streamText(push func(agentcore.AssistantEvent) bool, msg *agentcore.AssistantMessage, block agentcore.ContentBlock, text string, thinking bool, n int) bool {
	i := len(msg.Content)
	partial := func(sofar string) agentcore.ContentBlock {
		if thinking {
			return agentcore.ThinkingBlock{Thinking: sofar}
		}
		return agentcore.TextBlock{Text: sofar}
	}
	var start, stop agentcore.AssistantEvent = &agentcore.TextStartEvent{ContentIndex: i, Partial: msg},
		&agentcore.TextEndEvent{ContentIndex: i, Content: text, Partial: msg}
	if thinking {
		start, stop = &agentcore.ThinkingStartEvent{ContentIndex: i, Partial: msg},
			&agentcore.ThinkingEndEvent{ContentIndex: i, Content: text, Partial: msg}
	}
	msg.Content = append(msg.Content, partial(""))
	if !push(start) {
		return false
	}
	end := 0
	for _, piece := range SplitText(text, n) {
		end += len(piece)
		msg.Content[i] = partial(text[:end])
		var delta agentcore.AssistantEvent = &agentcore.TextDeltaEvent{ContentIndex: i, Delta: piece, Partial: msg}
		if thinking {
			delta = &agentcore.ThinkingDeltaEvent{ContentIndex: i, Delta: piece, Partial: msg}
		}
		if !push(delta) {
			return false
		}
	}
	msg.Content[i] = block
	return push(stop)
}

// pause waits d, or until ctx is done; it reports whether ctx is still
// live.
func pause(ctx context.Context, d time.Duration) bool {
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return ctx.Err() == nil
}

// SplitText splits text into min(chunks, length) consecutive pieces of
// ceil(length/n) characters; none for empty text. A character is a rune; an
// invalid byte counts as one.
func SplitText(text string, chunks int) []string {
	n := utf8.RuneCountInString(text)
	if n == 0 {
		return nil
	}
	parts := max(1, min(chunks, n))
	size := (n + parts - 1) / parts
	pieces := make([]string, 0, parts)
	start, count := 0, 0
	for i := range text {
		if count == size {
			pieces = append(pieces, text[start:i])
			start, count = i, 0
		}
		count++
	}
	return append(pieces, text[start:])
}
