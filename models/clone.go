package models

import (
	"bytes"
	"maps"
	"slices"

	"github.com/pi-go/agentcore"
)

// clone returns a copy of m that shares nothing mutable with it: slices,
// maps, raw JSON and the values its pointers point to are copied, nil
// staying nil and empty staying empty.
func clone(m agentcore.Model) agentcore.Model {
	m.Input = slices.Clone(m.Input)
	m.Cost.Tiers = slices.Clone(m.Cost.Tiers)
	m.Headers = maps.Clone(m.Headers)
	m.Compat = bytes.Clone(m.Compat)
	m.SamplingParams = bytes.Clone(m.SamplingParams)
	m.SamplingParamsByThinkingLevel = bytes.Clone(m.SamplingParamsByThinkingLevel)
	if m.ThinkingLevelMap != nil {
		m.ThinkingLevelMap = cloneLevels(m.ThinkingLevelMap)
	}
	if p := m.PromptCache; p != nil {
		b := new(struct {
			c agentcore.ModelPromptCache
			v [2]int
		})
		b.c = agentcore.ModelPromptCache{Short: copyTo(p.Short, &b.v[0]), Long: copyTo(p.Long, &b.v[1])}
		m.PromptCache = &b.c
	}
	if l := m.InputLimits; l != nil {
		m.InputLimits = cloneLimits(l)
	}
	return m
}

// cloneLevels copies a thinking level map, its strings in one block.
func cloneLevels(m agentcore.ThinkingLevelMap) agentcore.ThinkingLevelMap {
	c := make(agentcore.ThinkingLevelMap, len(m))
	values := make([]string, len(m))
	i := 0
	for l, v := range m {
		c[l] = copyTo(v, &values[i])
		i++
	}
	return c
}

// cloneLimits copies input limits in one block.
func cloneLimits(l *agentcore.ModelInputLimits) *agentcore.ModelInputLimits {
	b := new(struct {
		limits agentcore.ModelInputLimits
		images agentcore.ModelImageInputLimits
		resize agentcore.ModelImageResize
		bytes  int64
		v      [6]int
	})
	b.limits.MaxRequestBytes = copyTo(l.MaxRequestBytes, &b.bytes)
	if im := l.Images; im != nil {
		b.images = agentcore.ModelImageInputLimits{MaxPerMessage: copyTo(im.MaxPerMessage, &b.v[0]), MaxPerRequest: copyTo(im.MaxPerRequest, &b.v[1])}
		if r := im.Resize; r != nil {
			b.resize = agentcore.ModelImageResize{
				MaxWidth: copyTo(r.MaxWidth, &b.v[2]), MaxHeight: copyTo(r.MaxHeight, &b.v[3]),
				MaxBytes: copyTo(r.MaxBytes, &b.v[4]), JPEGQuality: copyTo(r.JPEGQuality, &b.v[5]),
			}
			b.images.Resize = &b.resize
		}
		b.limits.Images = &b.images
	}
	return &b.limits
}

// copyTo copies what p points to into *to and returns to; nil for nil.
func copyTo[T any](p *T, to *T) *T {
	if p == nil {
		return nil
	}
	*to = *p
	return to
}
