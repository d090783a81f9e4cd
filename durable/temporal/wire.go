package temporal

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
)

// Messages is a transcript as it crosses Temporal: workflow arguments,
// update and query results, and the state carried over by continue-as-new.
// It encodes as a JSON array of messages in pi's format; messages of an
// unregistered role decode as [*agentcore.CustomMessage]. An assistant
// message's Err, which pi's format leaves out, travels in an extra
// "goError" member: it decodes as the [*agentcore.ProviderError] it held
// (with its cause as a plain error of the same text), or as a plain error
// of the same text.
type Messages []agentcore.Message

// MarshalJSON writes the messages as a JSON array.
func (m Messages) MarshalJSON() ([]byte, error) {
	raws := make([]json.RawMessage, len(m))
	for i, msg := range m {
		data, err := encodeMessage(msg)
		if err != nil {
			return nil, fmt.Errorf("agentcore/durable: message %d: %w", i, err)
		}
		raws[i] = data
	}
	return json.Marshal(raws)
}

// UnmarshalJSON reads a JSON array of messages of any role.
func (m *Messages) UnmarshalJSON(data []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return fmt.Errorf("agentcore/durable: messages: %w", err)
	}
	msgs := make(Messages, len(raws))
	for i, raw := range raws {
		msg, err := decodeMessage(raw)
		if err != nil {
			return fmt.Errorf("agentcore/durable: message %d: %w", i, err)
		}
		msgs[i] = msg
	}
	*m = msgs
	return nil
}

// modelInput is what the model activity is given: one request. The stream
// options are not part of it: they hold the API key, which would be
// written to the workflow history, and request hooks, which are code; the
// activity takes them from the worker's [Options] and sets the request's
// thinking level.
type modelInput struct {
	Model     agentcore.Model         `json:"model"`
	Messages  Messages                `json:"messages"`
	Reasoning agentcore.ThinkingLevel `json:"reasoning,omitempty"`
	// Run and Request are the run's sequence number and the request's
	// index in it, for live events ([StreamEvent]).
	Run     int `json:"run,omitempty"`
	Request int `json:"request,omitempty"`
	// MaxTokens, when not zero, caps the answer: a compaction's summary
	// call sets it.
	MaxTokens int `json:"maxTokens,omitempty"`
}

// toolInput is what the tool activity is given: one validated call.
type toolInput struct {
	Name   string          `json:"name"`
	CallID string          `json:"callId"`
	Args   json.RawMessage `json:"args"`
}

// toolOutput is what the tool activity returns: the tool's result, or the
// error result of a failed, panicked or unknown-outcome call.
type toolOutput struct {
	Result     agentcore.ToolResult `json:"result"`
	IsError    bool                 `json:"isError"`
	DurationMs int64                `json:"durationMs"`
	// Err is the error Execute returned (or its panic), when it failed.
	Err string `json:"err,omitempty"`
	// Unknown is set when the call was interrupted earlier and not run
	// again: its result says its outcome is unknown.
	Unknown bool `json:"unknown,omitempty"`
}

// toolOutcome is a recorded tool call: its output and when the workflow
// learnt it.
type toolOutcome struct {
	Output    toolOutput `json:"output"`
	Timestamp int64      `json:"timestamp"`
	Aborted   bool       `json:"aborted,omitempty"`
}

// runRecord is the active run: where it started and every outcome the
// loop has asked for so far. Re-running the loop from its start with these
// outcomes gives the same decisions, so the record is the run's whole
// durable state.
type runRecord struct {
	// Seq numbers the session's runs from 1.
	Seq int `json:"seq"`
	// Base is the transcript length when the run started.
	Base int `json:"base"`
	// Prompts are the run's prompt messages.
	Prompts Messages `json:"prompts"`
	// Continue is set for a run continued from the transcript without a
	// prompt ([agentcore.RunLoopContinue]); SkipSteering for one whose
	// prompts are steering messages taken by a continue, which skips the
	// run's first steering poll, as [agentcore.Agent.Continue] does.
	Continue     bool `json:"continue,omitempty"`
	SkipSteering bool `json:"skipSteering,omitempty"`
	// Committed counts the run's messages already in the transcript.
	Committed int `json:"committed"`
	// Responses are the model's answers, by request.
	Responses responses `json:"responses"`
	// Tools are the tool calls' outcomes, by [callKey].
	Tools map[string]toolOutcome `json:"tools"`
	// Steering and FollowUps are what each poll of the queues took.
	Steering  []Messages `json:"steering"`
	FollowUps []Messages `json:"followUps"`
	// Started is when the run started, in Unix milliseconds: the
	// timestamp of the loop's declarations of tool changes; zero in runs
	// recorded before [pinChange].
	Started int64 `json:"started,omitempty"`
	// Aborted is set once the run was aborted.
	Aborted bool `json:"aborted,omitempty"`
	// Settings are the session's settings when the run started; nil when
	// they were never changed: the run uses its Options' defaults.
	Settings *Settings `json:"settings,omitempty"`
	// Context is the transcript the run started from, kept when the
	// transcript was replaced during the run; nil means the first Base
	// messages of the transcript.
	Context Messages `json:"context,omitempty"`
	// Held are the decided held calls the run applies before its loop
	// starts; nil once applied (or for none).
	Held *hold.State `json:"held,omitempty"`
	// Decide are the decide requests received during the run, applied
	// when it ends ([decideDuringRunChange]); their keys are recorded
	// then.
	Decide []Control `json:"decide,omitempty"`
}

// context is the transcript the run started from.
func (r *runRecord) context(transcript Messages) Messages {
	if r.Context != nil {
		return slices.Clone(r.Context)
	}
	return slices.Clone(transcript[:r.Base])
}

// sessionState is the workflow's state, carried over by continue-as-new.
type sessionState struct {
	Transcript Messages   `json:"transcript"`
	Steering   Messages   `json:"steering"`
	FollowUp   Messages   `json:"followUp"`
	Run        *runRecord `json:"run,omitempty"`
	// Runs counts the runs started; Finished those ended.
	Runs     int `json:"runs"`
	Finished int `json:"finished"`
	// Results are how the last runs ended, by Seq; only the latest few are
	// kept.
	Results map[int]WaitResult `json:"results,omitempty"`
	// ErrorMessage is the last run's error, "" after a success or reset.
	ErrorMessage string `json:"errorMessage,omitempty"`
	// Continued counts the continue-as-new generations.
	Continued int `json:"continued,omitempty"`
	// Settings are the settings clients changed; nil until one did (the
	// session then uses its Options').
	Settings *Settings `json:"settings,omitempty"`
	// Keys are the keys of the latest control requests applied (or
	// refused), oldest first ([Control]).
	Keys []appliedKey `json:"keys,omitempty"`
	// Origin is the cursor of the transcript's first message
	// ([Session.Messages]): it moves past every cursor handed out when the
	// transcript is reset or replaced.
	Origin int `json:"origin,omitempty"`
	// Held are the tool calls the last run held for a decision
	// ([Options].Hold), until a run applies them; nil when none.
	Held *hold.State `json:"held,omitempty"`
}

// keptResults is how many runs' results a session remembers for Wait.
const keptResults = 16

// State is a snapshot of a session, the answer of [Session.State].
type State struct {
	// Messages is the durable transcript.
	Messages Messages `json:"messages"`
	// Running is whether a run is active.
	Running bool `json:"running"`
	// Steering and FollowUp are the queued messages not yet taken.
	Steering Messages `json:"steering"`
	FollowUp Messages `json:"followUp"`
	// ErrorMessage is the last run's error, "" when it succeeded.
	ErrorMessage string `json:"errorMessage,omitempty"`
	// Runs counts the runs started since the session began.
	Runs int `json:"runs"`
	// HistoryLength and HistorySize are the current workflow run's history
	// length, in events, and size, in bytes; Continued counts
	// continue-as-new generations.
	HistoryLength int `json:"historyLength"`
	HistorySize   int `json:"historySize"`
	Continued     int `json:"continued"`

	// Settings are the session's current settings, with empty values
	// spelled out; a run in progress may use those it started with (see
	// the package doc's Settings section).
	Settings
}

func (s *sessionState) snapshot(set Settings, historyLength, historySize int) State {
	return State{
		Messages: slices.Clone(s.Transcript), Running: s.Run != nil,
		Steering: slices.Clone(s.Steering), FollowUp: slices.Clone(s.FollowUp),
		ErrorMessage: s.ErrorMessage, Runs: s.Runs, HistoryLength: historyLength, HistorySize: historySize, Continued: s.Continued,
		Settings: set.normalized(),
	}
}

// millis is t as Unix milliseconds, the transcript's timestamps.
func millis(t time.Time) int64 { return t.UnixMilli() }
