package google

import "testing"

// FuzzDecoder streams arbitrary bodies and checks the stream's contract
// (see providertest's Target.FuzzStream).
func FuzzDecoder(f *testing.F) {
	testTarget(f).FuzzStream(f,
		[]byte("data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\",\"args\":[1]}},{\"text\":\"x\",\"thought\":true}]},\"finishReason\":\"STOP\"}]}\r\n\r\n"),
		[]byte("data: {\"error\":{\"code\":503,\"status\":[1,{}]}}\n\ndata: {\"usageMetadata\":{\"promptTokenCount\":\"x\"}}"),
		[]byte("{\"error\":{\"code\":500,\"message\":\"not a stream\"}}"),
	)
}
