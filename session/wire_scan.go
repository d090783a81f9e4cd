package session

import (
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonscan"
)

// scanMessageEntry decodes a message entry line of the shape pi writes —
// exactly the members type ("message"), id, parentId (a string or null),
// timestamp and message, each once — in one pass over the line, its
// message read by reg. It reports false for any other line, and for a
// message reg does not read or one decodeMessage treats apart (a user
// message of empty plain content): decodeEntryJSON decodes those.
func scanMessageEntry(line []byte, reg *agentcore.MessageRegistry) (Entry, lineBase, bool) {
	var (
		s    jsonscan.Scanner
		seen uint8
		b    = lineBase{Type: "message"}
		msg  []byte
	)
	s.Reset(line)
	if !s.Object() {
		return nil, lineBase{}, false
	}
	for first := true; ; first = false {
		key, ok := s.Key(first)
		if !ok {
			break
		}
		var f uint8
		switch string(key) {
		case "type":
			f = 1
			if s.Peek() != '"' || s.String() != "message" {
				return nil, lineBase{}, false
			}
		case "id":
			f = 2
			if s.Peek() != '"' {
				return nil, lineBase{}, false
			}
			b.ID = s.String()
		case "parentId":
			f = 4
			if !s.Null() {
				if s.Peek() != '"' {
					return nil, lineBase{}, false
				}
				b.ParentID = s.String()
			}
		case "timestamp":
			f = 8
			if s.Peek() != '"' {
				return nil, lineBase{}, false
			}
			b.Timestamp = s.String()
		case "message":
			f = 16
			if s.Peek() != '{' {
				return nil, lineBase{}, false
			}
			msg = s.Span()
		default:
			return nil, lineBase{}, false
		}
		if seen&f != 0 || s.Failed() {
			return nil, lineBase{}, false
		}
		seen |= f
	}
	if seen != 31 || !s.End() {
		return nil, lineBase{}, false
	}
	m, err := reg.UnmarshalMessage(msg)
	if err != nil {
		return nil, lineBase{}, false
	}
	if u, ok := m.(*agentcore.UserMessage); ok && u.Content.Plain && u.Content.Text() == "" {
		return nil, lineBase{}, false
	}
	return &MessageEntry{EntryBase: b.EntryBase, Message: m}, b, true
}
