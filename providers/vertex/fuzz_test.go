package vertex

import "testing"

// FuzzDecoder streams arbitrary bodies and checks the stream's contract
// (see providertest's Target.FuzzStream).
func FuzzDecoder(f *testing.F) {
	testTarget(f).FuzzStream(f,
		[]byte("data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\",\"args\":[1]}},{\"text\":\"x\",\"thought\":true}]},\"finishReason\":\"STOP\"}]}\r\n\r\n"),
		[]byte("{\"error\":{\"code\":403,\"message\":\"Permission denied on resource project p.\",\"status\":\"PERMISSION_DENIED\"}}"),
	)
}
