package anthropic

import (
	"encoding/json"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/pricing"
	"github.com/pi-go/agentcore/internal/provider"
)

// event is the data of one server-sent event of a streamed response. One
// struct holds the fields of every event type; Type says which are set.
type event struct {
	Type         string          `json:"type"`
	Index        int             `json:"index"`
	Message      *startMessage   `json:"message"`
	ContentBlock *startBlock     `json:"content_block"`
	Delta        eventDelta      `json:"delta"`
	Usage        *deltaUsage     `json:"usage"`
	Error        json.RawMessage `json:"error"`
}

// reset empties ev for the next event and returns it.
func (ev *event) reset() *event {
	*ev = event{}
	return ev
}

// startMessage is the message of message_start.
type startMessage struct {
	ID    string     `json:"id"`
	Model string     `json:"model"`
	Usage startUsage `json:"usage"`
}

type startUsage struct {
	InputTokens              provider.Number `json:"input_tokens"`
	OutputTokens             provider.Number `json:"output_tokens"`
	CacheReadInputTokens     provider.Number `json:"cache_read_input_tokens"`
	CacheCreationInputTokens provider.Number `json:"cache_creation_input_tokens"`
	CacheCreation            *cacheCreation  `json:"cache_creation"`
}

type cacheCreation struct {
	Ephemeral1h *provider.Number `json:"ephemeral_1h_input_tokens"`
}

// startBlock is the content_block of content_block_start.
type startBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

// eventDelta is the delta of content_block_delta (Type and one of the
// texts) or of message_delta (the stop reason).
type eventDelta struct {
	Type        string       `json:"type"`
	Text        string       `json:"text"`
	Thinking    string       `json:"thinking"`
	PartialJSON string       `json:"partial_json"`
	Signature   string       `json:"signature"`
	StopReason  string       `json:"stop_reason"`
	StopDetails *stopDetails `json:"stop_details"`
}

type stopDetails struct {
	Explanation string `json:"explanation"`
}

// deltaUsage is the usage of message_delta; absent counts keep the values
// message_start gave.
type deltaUsage struct {
	InputTokens              *provider.Number `json:"input_tokens"`
	OutputTokens             *provider.Number `json:"output_tokens"`
	CacheReadInputTokens     *provider.Number `json:"cache_read_input_tokens"`
	CacheCreationInputTokens *provider.Number `json:"cache_creation_input_tokens"`
	CacheCreation            *cacheCreation   `json:"cache_creation"`
	OutputTokensDetails      *struct {
		ThinkingTokens *provider.Number `json:"thinking_tokens"`
	} `json:"output_tokens_details"`
	// The cost OpenRouter billed, for its models.
	provider.OpenRouterCost
}

// mapStopReason maps a stop reason onto pi's. A reason that is an error
// comes with its message; an unknown reason fails the response.
func mapStopReason(reason string, details *stopDetails) (stop agentcore.StopReason, errText string, known bool) {
	switch reason {
	case "end_turn", "pause_turn", "stop_sequence":
		return agentcore.StopStop, "", true
	case "max_tokens":
		return agentcore.StopLength, "", true
	case "tool_use":
		return agentcore.StopToolUse, "", true
	case "refusal":
		if details != nil && details.Explanation != "" {
			return agentcore.StopError, details.Explanation, true
		}
		return agentcore.StopError, "The model refused to complete the request", true
	case "sensitive":
		return agentcore.StopError, "Provider stopped with: sensitive", true
	}
	return "", "Unhandled stop reason: " + reason, false
}

// setStartUsage sets usage from message_start and prices it.
func setStartUsage(u *agentcore.Usage, s startUsage, model agentcore.Model) {
	u.Input = s.InputTokens.Count()
	u.Output = s.OutputTokens.Count()
	u.CacheRead = s.CacheReadInputTokens.Count()
	u.CacheWrite = s.CacheCreationInputTokens.Count()
	var write1h int64
	if s.CacheCreation != nil && s.CacheCreation.Ephemeral1h != nil {
		write1h = s.CacheCreation.Ephemeral1h.Count()
	}
	u.CacheWrite1h = &write1h
	price(u, model)
}

// applyDeltaUsage updates usage with the counts message_delta has and
// prices it.
func applyDeltaUsage(u *agentcore.Usage, d *deltaUsage, model agentcore.Model) {
	if d != nil {
		set := func(dst *int64, v *provider.Number) {
			if v != nil {
				*dst = v.Count()
			}
		}
		setOptional := func(dst **int64, v *provider.Number) {
			if v != nil {
				n := v.Count()
				*dst = &n
			}
		}
		set(&u.Input, d.InputTokens)
		set(&u.Output, d.OutputTokens)
		set(&u.CacheRead, d.CacheReadInputTokens)
		set(&u.CacheWrite, d.CacheCreationInputTokens)
		if d.CacheCreation != nil {
			setOptional(&u.CacheWrite1h, d.CacheCreation.Ephemeral1h)
		}
		if d.OutputTokensDetails != nil {
			setOptional(&u.Reasoning, d.OutputTokensDetails.ThinkingTokens)
		}
	}
	price(u, model)
}

// price sets the total and the cost of u from the model's rates
// ([pricing.Cost]), as pi-ai's calculateCost does: 1h cache writes cost
// twice the input rate. The total saturates at math.MaxInt64, and the
// cost is never negative.
func price(u *agentcore.Usage, model agentcore.Model) {
	u.TotalTokens = limit.Sum(u.Input, u.Output, u.CacheRead, u.CacheWrite)
	u.Cost = pricing.Cost(model, *u)
}
