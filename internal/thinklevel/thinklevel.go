// Package thinklevel says which thinking levels a model supports and fits a
// requested level to them, as pi-ai's getSupportedThinkingLevels and
// clampThinkingLevel do. Package models exports it; the providers call it
// here, so that they need not import the catalog.
package thinklevel

import (
	"slices"

	"github.com/pi-go/agentcore"
)

// Levels are the thinking levels from off to max.
var Levels = []agentcore.ThinkingLevel{
	agentcore.ThinkingOff, agentcore.ThinkingMinimal, agentcore.ThinkingLow, agentcore.ThinkingMedium,
	agentcore.ThinkingHigh, agentcore.ThinkingXHigh, agentcore.ThinkingMax,
}

// Supported returns the levels model supports, from off to max: only off
// for a model without reasoning; else every level its ThinkingLevelMap
// does not map to nil, except xhigh and max, which it must map.
func Supported(model agentcore.Model) []agentcore.ThinkingLevel {
	if !model.Reasoning {
		return []agentcore.ThinkingLevel{agentcore.ThinkingOff}
	}
	levels := make([]agentcore.ThinkingLevel, 0, len(Levels))
	for _, l := range Levels {
		v, mapped := model.ThinkingLevelMap[l]
		if mapped && v == nil {
			continue
		}
		if !mapped && (l == agentcore.ThinkingXHigh || l == agentcore.ThinkingMax) {
			continue
		}
		levels = append(levels, l)
	}
	return levels
}

// Clamp returns level if model supports it; else the nearest supported
// level above it, or failing that below it; for a level it does not know,
// the lowest supported one. An empty level is off.
func Clamp(model agentcore.Model, level agentcore.ThinkingLevel) agentcore.ThinkingLevel {
	if level == "" {
		level = agentcore.ThinkingOff
	}
	supported := Supported(model)
	if slices.Contains(supported, level) {
		return level
	}
	i := slices.Index(Levels, level)
	if i < 0 {
		return lowest(supported)
	}
	for _, l := range Levels[i:] {
		if slices.Contains(supported, l) {
			return l
		}
	}
	for j := i - 1; j >= 0; j-- {
		if slices.Contains(supported, Levels[j]) {
			return Levels[j]
		}
	}
	return lowest(supported)
}

func lowest(supported []agentcore.ThinkingLevel) agentcore.ThinkingLevel {
	if len(supported) == 0 {
		return agentcore.ThinkingOff
	}
	return supported[0]
}

// MapOr returns model's ThinkingLevelMap value for level, or fallback
// when the map has none for it (the level is absent or mapped to nil).
func MapOr(model agentcore.Model, level agentcore.ThinkingLevel, fallback string) string {
	if v := model.ThinkingLevelMap[level]; v != nil {
		return *v
	}
	return fallback
}

// Effort is the reasoning effort a request sends for level, as pi-ai's
// OpenAI providers compute it: "" for an empty level (thinking off, as the
// agent loop passes it); else level clamped to those model supports
// ([Clamp]), "" when that is off, else the model's ThinkingLevelMap value
// for it, or its own name when the map has none.
func Effort(model agentcore.Model, level agentcore.ThinkingLevel) string {
	if level == "" {
		return ""
	}
	level = Clamp(model, level)
	if level == agentcore.ThinkingOff {
		return ""
	}
	return MapOr(model, level, string(level))
}

// OffValue is what a request sends to turn thinking off, as pi-ai's
// OpenAI providers read it: ok is false when the model's ThinkingLevelMap
// maps off to nil (thinking cannot be turned off, so nothing is sent);
// else value is the map's value for off, "" when it has none.
func OffValue(model agentcore.Model) (value string, ok bool) {
	v, mapped := model.ThinkingLevelMap[agentcore.ThinkingOff]
	if mapped && v == nil {
		return "", false
	}
	return MapOr(model, agentcore.ThinkingOff, ""), true
}

// ThreeEfforts is level as one of the efforts low, medium and high, as
// pi-ai maps a level for the APIs that know no others (Claude's adaptive
// thinking, gpt-oss): minimal and low give low, medium gives medium, any
// other level high.
func ThreeEfforts(level agentcore.ThinkingLevel) string {
	switch level {
	case agentcore.ThinkingMinimal, agentcore.ThinkingLow:
		return "low"
	case agentcore.ThinkingMedium:
		return "medium"
	}
	return "high"
}
