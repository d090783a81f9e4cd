package azure

import "testing"

// FuzzDecoder streams arbitrary bodies and checks the stream's contract
// (see providertest's Target.FuzzStream).
func FuzzDecoder(f *testing.F) {
	testTarget(f).FuzzStream(f,
		[]byte("event: error\ndata: {\"error\":{\"message\":\"x\",\"code\":\"subscription_sharing_usage_limit_exceeded\"}}\n\n"),
		[]byte("data: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"service_tier\":\"priority\",\"usage\":{\"input_tokens\":\"x\"}}}\n\n"),
	)
}
