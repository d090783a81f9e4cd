// Package sdkbench times the streaming path of a model response: the same
// recorded server-sent-events body read by agentcore's providers, by the
// official Go SDKs, and by a minimal reader (the floor: split lines, decode
// each chunk into a small struct, append the text).
package sdkbench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Shape is one response: a reasoning block, a text block and parallel tool
// calls whose arguments stream in pieces, as a coding agent's turn looks.
type Shape struct {
	ReasoningDeltas, TextDeltas int // deltas of each block
	Tools, ArgPieces, ArgBytes  int // calls, pieces per call, argument bytes per call
}

// Turn is a typical coding-agent turn.
var Turn = Shape{ReasoningDeltas: 400, TextDeltas: 1200, Tools: 4, ArgPieces: 60, ArgBytes: 2400}

const word = "lorem ipsum dolor sit amet, consectetur adipiscing elit "

func delta(i int) string { return word[i%40 : i%40+6] }

// args is one call's arguments as JSON text of about n bytes.
func args(k, n int) string {
	body := strings.Repeat("x := f(y)\\n", n/11)
	return fmt.Sprintf(`{"path":"src/file%d.go","old":"%s","new":"%s"}`, k, body[:len(body)/2], body[len(body)/2:])
}

func pieces(s string, n int) []string {
	var out []string
	step := (len(s) + n - 1) / n
	for i := 0; i < len(s); i += step {
		out = append(out, s[i:min(i+step, len(s))])
	}
	return out
}

func sse(b *bytes.Buffer, event string, v any) {
	j, _ := json.Marshal(v)
	if event != "" {
		fmt.Fprintf(b, "event: %s\n", event)
	}
	fmt.Fprintf(b, "data: %s\n\n", j)
}

// OpenAIBody is the Chat Completions stream of s.
func OpenAIBody(s Shape) []byte {
	var b bytes.Buffer
	chunk := func(delta map[string]any, finish any) {
		sse(&b, "", map[string]any{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "bench-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	for i := range s.ReasoningDeltas {
		chunk(map[string]any{"reasoning_content": delta(i)}, nil)
	}
	for i := range s.TextDeltas {
		chunk(map[string]any{"content": delta(i)}, nil)
	}
	for k := range s.Tools {
		for p, piece := range pieces(args(k, s.ArgBytes), s.ArgPieces) {
			call := map[string]any{"index": k, "function": map[string]any{"arguments": piece}}
			if p == 0 {
				call["id"] = fmt.Sprintf("call_%d", k)
				call["type"] = "function"
				call["function"].(map[string]any)["name"] = "edit"
			}
			chunk(map[string]any{"tool_calls": []any{call}}, nil)
		}
	}
	chunk(map[string]any{}, "tool_calls")
	sse(&b, "", map[string]any{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "bench-model", "choices": []any{},
		"usage": map[string]any{"prompt_tokens": 1000, "completion_tokens": 900, "total_tokens": 1900}})
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}

// AnthropicBody is the Messages stream of s.
func AnthropicBody(s Shape) []byte {
	var b bytes.Buffer
	sse(&b, "message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "type": "message", "role": "assistant",
		"model": "bench-model", "content": []any{}, "stop_reason": nil, "usage": map[string]any{"input_tokens": 1000, "output_tokens": 1}}})
	idx := 0
	block := func(start map[string]any, deltas []map[string]any) {
		sse(&b, "content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": start})
		for _, d := range deltas {
			sse(&b, "content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": d})
		}
		sse(&b, "content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	var th []map[string]any
	for i := range s.ReasoningDeltas {
		th = append(th, map[string]any{"type": "thinking_delta", "thinking": delta(i)})
	}
	th = append(th, map[string]any{"type": "signature_delta", "signature": "c2lnbmF0dXJl"})
	block(map[string]any{"type": "thinking", "thinking": ""}, th)
	var tx []map[string]any
	for i := range s.TextDeltas {
		tx = append(tx, map[string]any{"type": "text_delta", "text": delta(i)})
	}
	block(map[string]any{"type": "text", "text": ""}, tx)
	for k := range s.Tools {
		var ds []map[string]any
		for _, piece := range pieces(args(k, s.ArgBytes), s.ArgPieces) {
			ds = append(ds, map[string]any{"type": "input_json_delta", "partial_json": piece})
		}
		block(map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", k), "name": "edit", "input": map[string]any{}}, ds)
	}
	sse(&b, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "tool_use"}, "usage": map[string]any{"output_tokens": 900}})
	sse(&b, "message_stop", map[string]any{"type": "message_stop"})
	return b.Bytes()
}

// Result is what a reader got out of a body; every reader must get the same.
type Result struct {
	Text, Reasoning int // bytes of text and reasoning
	Calls           int // tool calls with arguments that parse
	ArgBytes        int // bytes of all arguments
}

// ResponsesBody is the Responses API stream of s: a reasoning item, a
// message item and function-call items, each added, streamed and done,
// then response.completed.
func ResponsesBody(s Shape) []byte {
	var b bytes.Buffer
	ev := func(typ string, fields map[string]any) {
		fields["type"] = typ
		sse(&b, typ, fields)
	}
	ev("response.created", map[string]any{"response": map[string]any{"id": "resp_1", "status": "in_progress", "output": []any{}}})
	var reasoning, text strings.Builder
	ev("response.output_item.added", map[string]any{"output_index": 0, "item": map[string]any{"id": "rs_1", "type": "reasoning", "summary": []any{}}})
	for i := range s.ReasoningDeltas {
		reasoning.WriteString(delta(i))
		ev("response.reasoning_summary_text.delta", map[string]any{"output_index": 0, "item_id": "rs_1", "summary_index": 0, "delta": delta(i)})
	}
	ev("response.output_item.done", map[string]any{"output_index": 0, "item": map[string]any{"id": "rs_1", "type": "reasoning",
		"summary": []any{map[string]any{"type": "summary_text", "text": reasoning.String()}}}})
	ev("response.output_item.added", map[string]any{"output_index": 1, "item": map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "content": []any{}}})
	for i := range s.TextDeltas {
		text.WriteString(delta(i))
		ev("response.output_text.delta", map[string]any{"output_index": 1, "item_id": "msg_1", "content_index": 0, "delta": delta(i)})
	}
	ev("response.output_item.done", map[string]any{"output_index": 1, "item": map[string]any{"id": "msg_1", "type": "message", "role": "assistant",
		"content": []any{map[string]any{"type": "output_text", "text": text.String(), "annotations": []any{}}}}})
	for k := range s.Tools {
		a := args(k, s.ArgBytes)
		item := map[string]any{"id": fmt.Sprintf("fc_%d", k), "type": "function_call", "call_id": fmt.Sprintf("call_%d", k), "name": "edit", "arguments": ""}
		ev("response.output_item.added", map[string]any{"output_index": 2 + k, "item": item})
		for _, piece := range pieces(a, s.ArgPieces) {
			ev("response.function_call_arguments.delta", map[string]any{"output_index": 2 + k, "item_id": item["id"], "delta": piece})
		}
		ev("response.function_call_arguments.done", map[string]any{"output_index": 2 + k, "item_id": item["id"], "arguments": a})
		item["arguments"] = a
		ev("response.output_item.done", map[string]any{"output_index": 2 + k, "item": item})
	}
	ev("response.completed", map[string]any{"response": map[string]any{"id": "resp_1", "status": "completed", "output": []any{},
		"usage": map[string]any{"input_tokens": 1000, "output_tokens": 900, "total_tokens": 1900}}})
	return b.Bytes()
}

// GeminiBody is the streamGenerateContent (alt=sse) stream of s: thought
// and text parts, then each function call whole, as Gemini sends them.
func GeminiBody(s Shape) []byte {
	var b bytes.Buffer
	chunk := func(parts []any, finish string) {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		c := map[string]any{"candidates": []any{cand}, "responseId": "resp-1", "modelVersion": "bench-model"}
		if finish != "" {
			cand["finishReason"] = finish
			c["usageMetadata"] = map[string]any{"promptTokenCount": 1000, "candidatesTokenCount": 900, "totalTokenCount": 1900}
		}
		sse(&b, "", c)
	}
	for i := range s.ReasoningDeltas {
		chunk([]any{map[string]any{"text": delta(i), "thought": true}}, "")
	}
	for i := range s.TextDeltas {
		chunk([]any{map[string]any{"text": delta(i)}}, "")
	}
	for k := range s.Tools {
		chunk([]any{map[string]any{"functionCall": map[string]any{"id": fmt.Sprintf("call_%d", k), "name": "edit", "args": json.RawMessage(args(k, s.ArgBytes))}}}, "")
	}
	chunk([]any{}, "STOP")
	return b.Bytes()
}
