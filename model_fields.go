package agentcore

import (
	"bytes"
	"encoding/json"
	"slices"
)

// ModelCostTier is a price per million tokens for requests whose input,
// cache reads and cache writes together exceed InputTokensAbove.
type ModelCostTier struct {
	InputTokensAbove int64   `json:"inputTokensAbove"`
	Input            float64 `json:"input"`
	Output           float64 `json:"output"`
	CacheRead        float64 `json:"cacheRead"`
	CacheWrite       float64 `json:"cacheWrite"`
}

// ThinkingLevelMap maps thinking levels to a provider's own value for
// them, as pi-ai's thinkingLevelMap: a level absent from the map takes the
// provider's default, a level mapped to nil is not supported, and any
// other level is sent as the string it points to. Its JSON lists the
// levels from off to max, then any others in sorted order.
type ThinkingLevelMap map[ThinkingLevel]*string

// thinkingLevels are the levels in pi-ai's order, off first.
var thinkingLevels = []ThinkingLevel{ThinkingOff, ThinkingMinimal, ThinkingLow, ThinkingMedium, ThinkingHigh, ThinkingXHigh, ThinkingMax}

// MarshalJSON writes m with its levels in pi-ai's order.
func (m ThinkingLevelMap) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	keys := make([]ThinkingLevel, 0, len(m))
	for _, l := range thinkingLevels {
		if _, ok := m[l]; ok {
			keys = append(keys, l)
		}
	}
	var others []ThinkingLevel
	for l := range m {
		if !slices.Contains(thinkingLevels, l) {
			others = append(others, l)
		}
	}
	slices.Sort(others)
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, l := range append(keys, others...) {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(string(l))
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m[l])
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// ModelPromptCache gives how many seconds a provider keeps a cached
// prompt at each retention: Short for the default, Long for the extended
// one; nil when the provider does not say.
type ModelPromptCache struct {
	Short *int `json:"short,omitempty"`
	Long  *int `json:"long,omitempty"`
}

// ModelInputLimits are a provider's limits on one request; a nil field is
// no known limit.
type ModelInputLimits struct {
	// MaxRequestBytes is the largest request body it accepts.
	MaxRequestBytes *int64                 `json:"maxRequestBytes,omitempty"`
	Images          *ModelImageInputLimits `json:"images,omitempty"`
}

// ModelImageInputLimits are a provider's limits on images: how to resize
// one before sending it, and how many a message or a request may carry.
type ModelImageInputLimits struct {
	Resize        *ModelImageResize `json:"resize,omitempty"`
	MaxPerMessage *int              `json:"maxPerMessage,omitempty"`
	MaxPerRequest *int              `json:"maxPerRequest,omitempty"`
}

// ModelImageResize is how an image is fitted before it is sent: its
// largest width and height in pixels, its largest size in bytes, and the
// JPEG quality (0 to 100) to re-encode it with.
type ModelImageResize struct {
	MaxWidth    *int `json:"maxWidth,omitempty"`
	MaxHeight   *int `json:"maxHeight,omitempty"`
	MaxBytes    *int `json:"maxBytes,omitempty"`
	JPEGQuality *int `json:"jpegQuality,omitempty"`
}
