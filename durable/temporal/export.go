package temporal

import (
	"context"
	"fmt"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
	pisession "github.com/pi-go/agentcore/session"
)

// ExportSession appends the transcript of the durable session s to dst, a
// pi session file of package session, so that a person can resume it in
// pi or restore an [agentcore.Agent] from it ([pisession.Session.Restore]):
//
//   - every message of the transcript, in order, as a message entry,
//     except system messages (the prompt comes from the program's options
//     each time, as with [pisession.Session.Layer]);
//   - a compaction summary (see the Compaction section) as pi's compaction
//     entry keeping nothing before it, so the context built from the file
//     is the summary followed by the messages after it;
//   - then the session's model and thinking level ([Settings]) as a model
//     change and a thinking-level change, the last ones on the branch.
//
// The entries are appended from dst's leaf: give it a new session
// ([pisession.Create]) for a file holding the transcript alone. The
// transcript is read with [Session.Messages], in parts; an active run is
// waited for, and a transcript replaced while it is read is read again
// from its start. ctx bounds the reading; an entry that fails to append
// ends the export with its error, the entries before it kept.
func ExportSession(ctx context.Context, s *Session, dst *pisession.Session) error {
	msgs, err := transcript(ctx, s)
	if err != nil {
		return err
	}
	st, err := s.State(ctx)
	if err != nil {
		return err
	}
	for _, m := range msgs {
		if sum, ok := compaction.AsSummary(m); ok {
			if _, err := dst.RecordCompaction(&compaction.Result{Summary: sum, TokensBefore: sum.TokensBefore}); err != nil {
				return fmt.Errorf("agentcore/durable: export %s: %w", s.id, err)
			}
			continue
		}
		if _, ok := m.(*agentcore.SystemMessage); ok || m.Role() == "system" {
			continue
		}
		if _, err := dst.AppendMessage(m); err != nil {
			return fmt.Errorf("agentcore/durable: export %s: %w", s.id, err)
		}
	}
	set := st.Settings
	if set.Model.ID != "" || set.Model.Provider != "" {
		if _, err := dst.Append(&pisession.ModelChange{Provider: set.Model.Provider, ModelID: set.Model.ID}); err != nil {
			return fmt.Errorf("agentcore/durable: export %s: %w", s.id, err)
		}
	}
	if _, err := dst.Append(&pisession.ThinkingLevelChange{ThinkingLevel: set.ThinkingLevel}); err != nil {
		return fmt.Errorf("agentcore/durable: export %s: %w", s.id, err)
	}
	return nil
}

// transcript reads the whole transcript of s with [Session.Messages],
// starting over when it is replaced while read.
func transcript(ctx context.Context, s *Session) ([]agentcore.Message, error) {
	var all []agentcore.Message
	from := 0
	for {
		msgs, next, reset, err := s.Messages(ctx, from)
		if err != nil {
			return nil, err
		}
		if reset {
			all = all[:0]
		}
		if len(msgs) == 0 {
			return all, nil
		}
		all = append(all, msgs...)
		from = next
	}
}
