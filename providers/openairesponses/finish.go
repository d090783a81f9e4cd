package openairesponses

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/jsvalue"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/pricing"
)

// finalize applies a terminal response (response.completed or
// response.incomplete): the encrypted content of reasoning items that
// their output_item.done lacked, the response ID, the usage and its cost
// at the response's service tier, and the stop reason. It returns the
// error text of a status pi-ai does not know, "" otherwise.
func (d *decoder) finalize(r *response) string {
	d.terminal = true
	d.backfill(r.Output)
	d.removedReasoning(r.InputTransformations)
	if r.ID != "" {
		d.b.Out.ResponseID = r.ID
	}
	if r.Usage != nil {
		d.b.Out.Usage = usage(r.Usage)
	}
	multiplier := 1.0
	if !d.flatPrice {
		multiplier = tierMultiplier(d.model, cmp.Or(r.ServiceTier, d.serviceTier))
	}
	price(&d.b.Out.Usage, d.model, multiplier)
	reason := ""
	if r.IncompleteDetails != nil {
		reason = r.IncompleteDetails.Reason
	}
	d.b.Out.RawStopReason = r.Status
	if reason != "" {
		d.b.Out.RawStopReason = r.Status + "." + reason
	}
	stop, text, known := mapStatus(r.Status, reason)
	if !known {
		return "Unhandled stop reason: " + r.Status
	}
	d.b.Out.StopReason, d.b.Out.ErrorMessage = stop, text
	if stop == agentcore.StopStop && slices.ContainsFunc(d.b.Out.Content, isToolCall) {
		d.b.Out.StopReason = agentcore.StopToolUse
	}
	return ""
}

func isToolCall(b agentcore.ContentBlock) bool {
	_, ok := b.(agentcore.ToolCall)
	return ok
}

// backfill adds to the signature of each reasoning block the encrypted
// content its item has in the terminal response's output when the item
// streamed without it (Azure sends it only there).
func (d *decoder) backfill(raw lazyRaw) {
	if len(d.unsigned) == 0 {
		return
	}
	var output []json.RawMessage
	decodeLoosely(raw, &output)
	for _, raw := range output {
		var it item
		if !decodeLoosely(raw, &it) || it.Type != kindThinking || it.ID == nil || !jsvalue.Truthy(it.EncryptedContent) {
			continue
		}
		i, ok := d.unsigned[*it.ID]
		if !ok {
			continue
		}
		b := d.b.Out.Content[i].(agentcore.ThinkingBlock)
		stored, err := jsonv.ParseString(b.ThinkingSignature)
		if err != nil || stored.Kind() != jsonv.Object {
			continue
		}
		content, err := jsonv.Parse(it.EncryptedContent)
		if err != nil {
			continue
		}
		members := slices.Clone(stored.Members())
		if j := stored.IndexOf("encrypted_content"); j >= 0 {
			members[j].Value = content
		} else {
			members = append(members, jsonv.Member{Key: "encrypted_content", Value: content})
		}
		sig := jsonv.ObjectValue(members).JSON()
		if !d.b.Take(max(0, len(sig)-len(b.ThinkingSignature))) {
			return
		}
		b.ThinkingSignature = sig
		d.b.Out.Content[i] = b
	}
}

// removedReasoning adds to the message's diagnostics the replayed
// reasoning items the API reports it withheld from the model (after an
// edit of earlier input, or made for another organization or model), as
// pi-ai records them: their type, ID, action and reason, with the time.
// Removals at a turn boundary, which models before GPT-5.6 report for
// every earlier turn, are left out.
func (d *decoder) removedReasoning(raw lazyRaw) {
	if len(raw) == 0 {
		return
	}
	list, err := jsonv.Parse(raw)
	if err != nil || list.Kind() != jsonv.Array {
		return
	}
	var removals []jsonv.Value
	for _, t := range list.Items() {
		if t.Kind() != jsonv.Object {
			continue
		}
		typ, _ := t.Get("type")
		action, _ := t.Get("action")
		reason, _ := t.Get("reason")
		if typ.Str() != "reasoning" || action.Str() != "removed" || reason.Kind() == jsonv.String && reason.Str() == "turn_boundary" {
			continue
		}
		var kept []jsonv.Member
		for _, k := range []string{"type", "id", "action", "reason"} {
			if v, ok := t.Get(k); ok {
				kept = append(kept, jsonv.Member{Key: k, Value: v})
			}
		}
		removals = append(removals, jsonv.ObjectValue(kept))
	}
	if len(removals) == 0 {
		return
	}
	diagnostic := jsonv.ObjectValue([]jsonv.Member{
		{Key: "type", Value: jsonv.StringValue("openai_input_transformations")},
		{Key: "timestamp", Value: jsonv.NumberValue(float64(time.Now().UnixMilli()))},
		{Key: "details", Value: jsonv.ObjectValue([]jsonv.Member{{Key: "transformations", Value: jsonv.ArrayValue(removals)}})},
	})
	var all []jsonv.Value
	if prior, err := jsonv.Parse(d.b.Out.Diagnostics); err == nil && prior.Kind() == jsonv.Array {
		all = slices.Clone(prior.Items())
	}
	d.b.Out.Diagnostics = jsonv.ArrayValue(append(all, diagnostic)).AppendJSON(nil)
}

// usage maps a response's usage onto pi's: cached and cache-write tokens
// are counted apart from the input, which OpenAI reports them in;
// reasoning tokens are part of the output.
//
// Every count is clamped to 0…math.MaxInt64 ([limit.Count]), so a
// hostile or broken server cannot make a count or a cost negative.
func usage(u *usageJSON) agentcore.Usage {
	cached, written := u.InputTokensDetails.CachedTokens.Count(), u.InputTokensDetails.CacheWriteTokens.Count()
	return agentcore.Usage{
		Input:       max(0, u.InputTokens.Count()-limit.Sum(cached, written)),
		Output:      u.OutputTokens.Count(),
		CacheRead:   cached,
		CacheWrite:  written,
		Reasoning:   new(u.OutputTokensDetails.ReasoningTokens.Count()),
		TotalTokens: u.TotalTokens.Count(),
	}
}

// price sets u's cost at the model's rates ([pricing.Cost]), times the
// service tier's multiplier.
func price(u *agentcore.Usage, model agentcore.Model, multiplier float64) {
	u.Cost = pricing.Cost(model, *u)
	if c := &u.Cost; multiplier != 1 {
		c.Input *= multiplier
		c.Output *= multiplier
		c.CacheRead *= multiplier
		c.CacheWrite *= multiplier
		c.Total = c.Input + c.Output + c.CacheRead + c.CacheWrite
	}
}

// tierMultiplier is what a service tier costs against the default one.
func tierMultiplier(model agentcore.Model, tier string) float64 {
	switch tier {
	case "flex":
		return 0.5
	case "priority", "fast":
		if model.ID == "gpt-5.5" {
			return 2.5
		}
		return 2
	}
	return 1
}

// mapStatus maps a response's status (and the reason of an incomplete
// one) onto a stop reason and its error text; known is false for a
// status pi-ai does not know.
func mapStatus(status, incompleteReason string) (stop agentcore.StopReason, text string, known bool) {
	switch status {
	case "", "completed", "in_progress", "queued":
		return agentcore.StopStop, "", true
	case "incomplete":
		switch incompleteReason {
		case "max_output_tokens":
			return agentcore.StopLength, "", true
		case "":
			return agentcore.StopError, "Response incomplete without a provider reason", true
		}
		return agentcore.StopError, "Response incomplete: " + incompleteReason, true
	case "failed", "cancelled":
		return agentcore.StopError, "", true
	}
	return "", "", false
}

// failedText is the error of a response.failed: the error's code and
// message, else the reason it is incomplete.
func failedText(r *response) string {
	switch {
	case r.Error != nil:
		code, msg := "unknown", "no message"
		if jsvalue.Truthy(r.Error.Code) {
			code = jsvalue.Template(r.Error.Code)
		}
		if jsvalue.Truthy(r.Error.Message) {
			msg = jsvalue.Template(r.Error.Message)
		}
		return code + ": " + msg
	case r.IncompleteDetails != nil && r.IncompleteDetails.Reason != "":
		return "incomplete: " + r.IncompleteDetails.Reason
	}
	return "Unknown error (no error details in response)"
}
