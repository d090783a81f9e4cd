package session

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
)

// Layer returns an [agentcore.Layer] that keeps an Agent's conversation
// in s, so that its context ([Session.Context], or pi opening the file)
// is the Agent's transcript:
//
//   - every message the Agent ends (message_end: prompts, answers, tool
//     results, steering and follow-up messages, [agentcore.Agent.AppendMessage])
//     is appended to s (pi's custom messages, role "custom", as
//     [CustomMessageEntry], as pi's agent session records them);
//   - a message the Agent replaced ([agentcore.MessageReplaceEvent]: a held
//     call's real result in place of its placeholder) is recorded as pi's
//     [ContextEdit] of its entry when only its content changed, else (a
//     tool result whose isError changed, say) on a branch that starts
//     where the message's entry started, with the messages after it
//     appended again (pi's context edits replace content only); a message
//     the latest compaction kept gets a copy of the compaction after the
//     kept messages on that branch, so the summary stays;
//   - a transcript the Agent replaced ([agentcore.TranscriptSetEvent]:
//     SetMessages, Reset) is compared with s's context: what extends it is
//     appended, one message changed in its content is a ContextEdit, and
//     anything else starts a branch at the first message that differs
//     (the Agent's leading system messages that no event recorded are left
//     out; a compaction recorded with [Session.OnCompaction] before the
//     transcript was set to its result leaves nothing to record);
//   - the model sees the context's branch summaries, custom messages and
//     compaction summaries as user messages ([ConvertMessages], first in
//     the ConvertToLLM pipeline);
//   - a record that failed (a write error, or a change to a compaction's
//     summary or a transcript cut short among the messages it kept) fails the run at
//     its next model request (PrepareRequest), with the error, rather than
//     going on unrecorded.
//
// Records are written on the goroutine that delivers the event, before
// the run goes on (an Agent's listeners are awaited). Record compactions
// with [Session.OnCompaction].
func (s *Session) Layer() agentcore.Layer {
	var (
		mu  sync.Mutex
		err error
	)
	return agentcore.LayerFunc(func(setup *agentcore.Setup) {
		setup.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
			var werr error
			switch ev := ev.(type) {
			case *agentcore.MessageEndEvent:
				_, werr = s.Append(endedEntry(ev.Message))
			case *agentcore.MessageReplaceEvent:
				werr = s.replaceMessage(ev.Old, ev.Message)
			case *agentcore.TranscriptSetEvent:
				werr = s.recordTranscript(ev.Messages)
			}
			if werr != nil {
				mu.Lock()
				err = werr
				mu.Unlock()
			}
		})
		setup.AddHooks(agentcore.Hooks{
			ConvertToLLM: func(_ context.Context, messages []agentcore.Message) ([]agentcore.Message, error) {
				return ConvertMessages(messages), nil
			},
			PrepareRequest: func(context.Context, agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					return nil, fmt.Errorf("session: %w", err)
				}
				return nil, nil
			},
		})
	})
}

// Restore returns opts set to resume s from its current leaf: the
// context's messages as the transcript, its thinking level, a model and
// s's [Session.Layer] appended to the layers.
//
// The model is the program's when opts.Model has an ID, as pi keeps the
// model it is given: lookup (models.Lookup for pi's catalog) fills only
// the fields opts.Model leaves zero (a context window, prices), and never
// replaces the base URL, headers or compat settings the program gave.
// When opts.Model has no ID, it is the session's model as lookup knows
// it. opts.Model is kept as it is when lookup is nil or does not know
// the model.
func (s *Session) Restore(opts agentcore.Options, lookup func(provider, id string) (agentcore.Model, bool)) agentcore.Options {
	ctx := s.Context()
	opts.Messages = ctx.Messages
	if ctx.ThinkingLevel != "" {
		opts.ThinkingLevel = ctx.ThinkingLevel
	}
	opts.Model = restoreModel(opts.Model, ctx.Model, lookup)
	opts.Layers = append(append([]agentcore.Layer(nil), opts.Layers...), s.Layer())
	return opts
}

// RecordCompaction appends r, a compaction of the package compaction, as
// pi's compaction entry: its summary, token count, file lists (details)
// and usage; its first kept entry is the entry of the r.Kept-th message
// from the end of the current branch (the compaction's own ID when it
// kept none, the first message when the branch holds fewer).
func (s *Session) RecordCompaction(r *compaction.Result) (string, error) {
	if r == nil || r.Summary == nil {
		return "", fmt.Errorf("%w: no compaction result", ErrInvalid)
	}
	c := &Compaction{Summary: r.Summary.Summary, TokensBefore: r.TokensBefore, Usage: r.Summary.Usage}
	if len(r.Summary.ReadFiles) > 0 || len(r.Summary.ModifiedFiles) > 0 {
		c.Details = filesJSON(r.Summary.ReadFiles, r.Summary.ModifiedFiles)
	}
	if r.Kept > 0 {
		c.FirstKeptEntryID = s.firstKept(r.Kept)
	}
	return s.Append(c)
}

// firstKept returns the ID of the kept-th message entry from the end of
// the current branch, system messages left out; the first one when the
// branch holds fewer, "" when none. No entry is read back.
func (s *Session) firstKept(kept int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, seen := "", 0
	path := s.t.pathSlots(s.t.leaf)
	for i := len(path) - 1; i >= 0 && seen < kept; i-- {
		if sl := path[i]; sl.typ == "message" && sl.role != "system" {
			seen++
			id = sl.base.ID
		}
	}
	return id
}

// OnCompaction returns a [compaction.Listener] for [compaction.Options]
// OnEvent that records each compaction that succeeded
// ([Session.RecordCompaction]) and then calls next, when not nil. A
// failed record is reported to onError, when not nil.
func (s *Session) OnCompaction(next compaction.Listener, onError func(error)) compaction.Listener {
	return func(ctx context.Context, ev compaction.Event) {
		if end, ok := ev.(*compaction.EndEvent); ok && end.Result != nil {
			if _, err := s.RecordCompaction(end.Result); err != nil && onError != nil {
				onError(err)
			}
		}
		if next != nil {
			next(ctx, ev)
		}
	}
}

func filesJSON(read, modified []string) []byte {
	if read == nil {
		read = []string{}
	}
	if modified == nil {
		modified = []string{}
	}
	data, _ := json.Marshal(struct {
		ReadFiles     []string `json:"readFiles"`
		ModifiedFiles []string `json:"modifiedFiles"`
	}{read, modified})
	return data
}
