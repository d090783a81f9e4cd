package azure

import (
	"maps"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/internal/variant"
	"github.com/pi-go/agentcore/providers/openairesponses"
)

// The error texts of failures Azure words otherwise than OpenAI, as
// pi-ai words them.
const (
	// ErrorName starts the text of a refusal: "Azure OpenAI API error
	// (429): ...".
	ErrorName = "Azure OpenAI API error"
	// NoStopReasonText is the error of a response that ended without a
	// stop reason.
	NoStopReasonText = "Azure OpenAI Responses stream ended without a stop reason"
)

// StreamFn returns a stream function that calls Azure OpenAI's Responses
// API, as pi-ai's azure-openai-responses provider does. opts are copied.
//
// It is [openairesponses.StreamFn] (the same body, events, limits and
// failures) with Azure's endpoint, authentication and deployment names
// (see the package doc) and pi-ai's Azure rules for the body. Each call
// makes one streaming POST when its stream is ranged over, on the ranging
// goroutine; it starts no goroutine.
func StreamFn(opts Options) agentcore.StreamFn {
	opts.Deployments = maps.Clone(opts.Deployments)
	return openairesponses.StreamFnVariant(opts.codec(), &variant.Responses{
		Endpoint:         opts.endpoint,
		Model:            opts.ResolveDeployment,
		ErrorName:        ErrorName,
		NoStopReasonText: NoStopReasonText,
		ToolCallProvider: "azure",
	})
}
