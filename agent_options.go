package agentcore

import (
	"bytes"
	"maps"
)

// StreamOptions returns a copy of the options the Agent passes to every
// request of its future runs (see [Agent.SetStreamOptions]).
func (a *Agent) StreamOptions() StreamOptions {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.streamOptions.clone()
}

// DefaultAgentTransport is the Transport an Agent's requests carry when its
// stream options leave it empty, pi's Agent's default.
const DefaultAgentTransport = "auto"

// SetStreamOptions replaces the options the Agent passes to every request:
// SessionID, ThinkingBudgets, Transport, MaxRetryDelay and the rest (the
// fields pi's Agent lets a caller change between runs). Reasoning is
// ignored: the thinking level decides it. APIKey stays the fallback when
// [Hooks.GetAPIKey] answers nothing. An empty Transport means
// [DefaultAgentTransport]. The maps and JSON of o are copied.
//
// It is safe to call at any time, from a listener or a hook too. A run in
// progress keeps the options it started with, as pi's Agent does; the next
// run's requests carry the new ones. To change one field, read the current
// options with [Agent.StreamOptions] first.
func (a *Agent) SetStreamOptions(o StreamOptions) {
	o = o.agentDefaults()
	a.mu.Lock()
	a.streamOptions = o
	a.mu.Unlock()
}

// ToolExecution returns the batch mode of future runs.
func (a *Agent) ToolExecution() ToolExecutionMode {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.toolExecution.orParallel()
}

// SetToolExecution sets the batch mode of future runs; empty means
// [ToolsParallel]. A run in progress keeps its mode. A tool whose
// ExecutionMode is sequential still makes its batch sequential.
func (a *Agent) SetToolExecution(m ToolExecutionMode) {
	a.mu.Lock()
	a.toolExecution = m
	a.mu.Unlock()
}

// orParallel returns m, or [ToolsParallel] when m is empty.
func (m ToolExecutionMode) orParallel() ToolExecutionMode {
	if m == "" {
		return ToolsParallel
	}
	return m
}

// agentDefaults returns a clone of o with the Agent's defaults set.
func (o StreamOptions) agentDefaults() StreamOptions {
	o = o.clone()
	if o.Transport == "" {
		o.Transport = DefaultAgentTransport
	}
	return o
}

// clone returns o with its own maps, JSON, temperature, identity and
// response format.
func (o StreamOptions) clone() StreamOptions {
	o.Headers = maps.Clone(o.Headers)
	o.ThinkingBudgets = maps.Clone(o.ThinkingBudgets)
	o.SamplingParams = bytes.Clone(o.SamplingParams)
	o.Metadata = bytes.Clone(o.Metadata)
	o.Identity = o.Identity.clone()
	o.ResponseFormat = o.ResponseFormat.clone()
	if o.Temperature != nil {
		o.Temperature = new(*o.Temperature)
	}
	return o
}
