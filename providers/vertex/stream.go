package vertex

import (
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/google"
	"github.com/pi-go/agentcore/providers/internal/variant"
)

// NoFinishReasonText is the error of a response that ended without a
// finish reason, as pi-ai words it for Vertex.
const NoFinishReasonText = "Google Vertex stream ended without a finish reason"

// StreamFn returns a stream function that calls Gemini models on Vertex
// AI, as pi-ai's google-vertex provider does. opts are copied.
//
// It is [google.StreamFn] (the same body, events, limits and failures)
// with Vertex's endpoints and authentication (see the package doc). Each
// call makes one streaming POST when its stream is ranged over, on the
// ranging goroutine; it starts no goroutine.
func StreamFn(opts Options) agentcore.StreamFn {
	return google.StreamFnVariant(opts.codec(), &variant.Gemini{
		Endpoint:            opts.endpoint,
		NoFinishReasonText:  NoFinishReasonText,
		FlashBudgetsForLite: true,
	})
}
