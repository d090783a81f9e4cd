package models

import (
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/thinklevel"
)

// SupportedThinkingLevels returns the thinking levels model supports, from
// off to max, as pi-ai's getSupportedThinkingLevels does: only off for a
// model without reasoning; else every level its ThinkingLevelMap does not
// map to nil, except xhigh and max, which are supported only when mapped.
func SupportedThinkingLevels(model agentcore.Model) []agentcore.ThinkingLevel {
	return thinklevel.Supported(model)
}

// ClampThinkingLevel returns level when model supports it, else the
// nearest supported level above it, or when none is above, below it, as
// pi-ai's clampThinkingLevel does; a level it does not know gives the
// lowest supported one. An empty level is [agentcore.ThinkingOff].
func ClampThinkingLevel(model agentcore.Model, level agentcore.ThinkingLevel) agentcore.ThinkingLevel {
	return thinklevel.Clamp(model, level)
}
