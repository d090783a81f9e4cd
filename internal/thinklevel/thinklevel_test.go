package thinklevel

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
)

func TestEffort(t *testing.T) {
	str := func(s string) *string { return &s }
	plain := agentcore.Model{Reasoning: true}
	mapped := agentcore.Model{Reasoning: true, ThinkingLevelMap: agentcore.ThinkingLevelMap{
		agentcore.ThinkingOff: nil, agentcore.ThinkingMinimal: nil, agentcore.ThinkingHigh: str("HIGH"), agentcore.ThinkingXHigh: str("xhigh"),
	}}
	tests := []struct {
		name  string
		model agentcore.Model
		level agentcore.ThinkingLevel
		want  string
	}{
		{"off", plain, agentcore.ThinkingOff, ""},
		{"empty", plain, "", ""},
		{"unknown", plain, "turbo", ""},
		{"a level without a map", plain, agentcore.ThinkingMedium, "medium"},
		{"xhigh without a map is high", plain, agentcore.ThinkingXHigh, "high"},
		{"max without a map is high", plain, agentcore.ThinkingMax, "high"},
		{"mapped", mapped, agentcore.ThinkingHigh, "HIGH"},
		{"unsupported off clamps up", mapped, agentcore.ThinkingOff, "low"},
		{"empty is off, not clamped", mapped, "", ""},
		{"unsupported minimal clamps up", mapped, agentcore.ThinkingMinimal, "low"},
		{"max clamps down to a mapped xhigh", mapped, agentcore.ThinkingMax, "xhigh"},
		{"without reasoning", agentcore.Model{}, agentcore.ThinkingHigh, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Effort(tt.model, tt.level))
		})
	}
	assert.Equal(t, "fallback", MapOr(mapped, agentcore.ThinkingOff, "fallback"))
	assert.Equal(t, "fallback", MapOr(mapped, agentcore.ThinkingLow, "fallback"))
	assert.Equal(t, "HIGH", MapOr(mapped, agentcore.ThinkingHigh, "fallback"))
}

func TestOffValue(t *testing.T) {
	none := "none"
	tests := []struct {
		name  string
		m     agentcore.ThinkingLevelMap
		value string
		ok    bool
	}{
		{"no map", nil, "", true},
		{"off absent", agentcore.ThinkingLevelMap{agentcore.ThinkingHigh: nil}, "", true},
		{"off mapped", agentcore.ThinkingLevelMap{agentcore.ThinkingOff: &none}, "none", true},
		{"off unsupported", agentcore.ThinkingLevelMap{agentcore.ThinkingOff: nil}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := OffValue(agentcore.Model{Reasoning: true, ThinkingLevelMap: tt.m})
			assert.Equal(t, tt.value, v)
			assert.Equal(t, tt.ok, ok)
		})
	}
}

func TestThreeEfforts(t *testing.T) {
	want := map[agentcore.ThinkingLevel]string{
		agentcore.ThinkingMinimal: "low", agentcore.ThinkingLow: "low", agentcore.ThinkingMedium: "medium",
		agentcore.ThinkingHigh: "high", agentcore.ThinkingXHigh: "high", agentcore.ThinkingMax: "high", "other": "high",
	}
	for level, effort := range want {
		assert.Equal(t, effort, ThreeEfforts(level), level)
	}
}
