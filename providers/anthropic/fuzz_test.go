package anthropic

import "testing"

// FuzzDecoder streams arbitrary bodies and checks the stream's contract
// (see providertest's Target.FuzzStream).
func FuzzDecoder(f *testing.F) {
	testTarget(f).FuzzStream(f,
		[]byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\": [1, tr\"}}\n\n"),
		[]byte("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":\"x\"}}\n"),
	)
}
