package mistral

import "testing"

// FuzzDecoder streams arbitrary bodies and checks the stream's contract
// (see providertest's Target.FuzzStream).
func FuzzDecoder(f *testing.F) {
	testTarget(f).FuzzStream(f,
		[]byte("data: {\"choices\":[{\"delta\":{\"content\":[\"a\",{\"type\":\"thinking\",\"thinking\":[{\"text\":\"\\ud800b\"}]},7]},\"finish_reason\":\"tool_calls\"}]}\n\n"),
		[]byte("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"null\",\"index\":1e400,\"function\":{\"arguments\":{\"a\":[1]}}}]}}],\"usage\":{\"prompt_tokens\":\"x\",\"num_cached_tokens\":-1}}\n\n"),
		[]byte("data: {\"choices\":{}}\n\ndata: [DONE]\n\n"),
	)
}
