package openai

import "testing"

// FuzzDecoder streams arbitrary bodies and checks the stream's contract
// (see providertest's Target.FuzzStream).
func FuzzDecoder(f *testing.F) {
	testTarget(f).FuzzStream(f,
		[]byte("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":3,\"function\":{\"arguments\":\"{\\\"a\\\": [1, tr\"}}]}}]}\n\n"),
		[]byte("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":\"x\",\"completion_tokens\":-1}}\r\ndata: [DONE]"),
		[]byte("event: error\ndata: {\"error\":false}\n\n"),
	)
}
