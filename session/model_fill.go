package session

import "github.com/pi-go/agentcore"

// restoreModel returns the model a restored Agent runs on. A program that
// gave a model (an ID) keeps it: lookup of that model fills only the
// fields the program left zero, so the base URL, headers and compat
// settings it gave (a gateway, its keys) are never replaced. A program
// that gave none gets the session's model from lookup, as pi restores it.
// Without a lookup, or for a model lookup does not know, given stays as
// it is.
func restoreModel(given agentcore.Model, recorded *ModelRef, lookup func(provider, id string) (agentcore.Model, bool)) agentcore.Model {
	if lookup == nil {
		return given
	}
	if given.ID == "" {
		if recorded == nil {
			return given
		}
		if m, ok := lookup(recorded.Provider, recorded.ModelID); ok {
			return m
		}
		return given
	}
	from, ok := lookup(given.Provider, given.ID)
	if !ok {
		return given
	}
	return fillModel(given, from)
}

// fillModel returns m with each field it leaves zero taken from from. A
// zero field is a missing one: an empty string, a nil map, slice or
// pointer, a zero number or cost, a false Reasoning.
func fillModel(m, from agentcore.Model) agentcore.Model {
	fill(&m.Name, from.Name)
	fill(&m.API, from.API)
	fill(&m.Provider, from.Provider)
	fill(&m.BaseURL, from.BaseURL)
	fill(&m.Type, from.Type)
	fill(&m.ContextWindow, from.ContextWindow)
	fill(&m.MaxTokens, from.MaxTokens)
	m.Reasoning = m.Reasoning || from.Reasoning
	if m.Input == nil {
		m.Input = append([]string(nil), from.Input...)
	}
	if m.Cost.Input == 0 && m.Cost.Output == 0 && m.Cost.CacheRead == 0 && m.Cost.CacheWrite == 0 && m.Cost.Tiers == nil {
		m.Cost = from.Cost
	}
	if m.Headers == nil && from.Headers != nil {
		m.Headers = make(map[string]string, len(from.Headers))
		for k, v := range from.Headers {
			m.Headers[k] = v
		}
	}
	if m.Compat == nil {
		m.Compat = from.Compat
	}
	if m.ThinkingLevelMap == nil {
		m.ThinkingLevelMap = from.ThinkingLevelMap
	}
	if m.PromptCache == nil {
		m.PromptCache = from.PromptCache
	}
	if m.InputLimits == nil {
		m.InputLimits = from.InputLimits
	}
	if m.SamplingParams == nil {
		m.SamplingParams = from.SamplingParams
	}
	if m.SamplingParamsByThinkingLevel == nil {
		m.SamplingParamsByThinkingLevel = from.SamplingParamsByThinkingLevel
	}
	return m
}

func fill[T comparable](dst *T, v T) {
	var zero T
	if *dst == zero {
		*dst = v
	}
}
