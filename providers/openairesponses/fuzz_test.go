package openairesponses

import "testing"

// FuzzEventReader streams arbitrary bodies and checks the stream's
// contract (see providertest's Target.FuzzStream).
func FuzzEventReader(f *testing.F) {
	testTarget(f).FuzzStream(f,
		[]byte("data: {\"type\":\"response.output_item.added\",\"output_index\":1.0,\"item\":{\"type\":\"function_call\",\"arguments\":\"{\\\"a\\\": [1, tr\"}}\n\n"),
		[]byte("data: {\"type\":\"response.completed\",\"response\":{\"status\":\"incomplete\",\"usage\":{\"input_tokens\":\"x\",\"output_tokens\":-1}}}\r\ndata: [DONE]"),
		[]byte("event: error\ndata: {\"error\":false}\n\n"),
		[]byte("data: null\n\ndata: {\"type\":\"response.output_item.done\",\"output_index\":\"0\",\"item\":{\"type\":\"reasoning\",\"id\":7}}\n\n"),
	)
}
