package session

import (
	"errors"
	"fmt"
	"os"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// line returns the line of sl's entry as pi writes it; see lines.
func (t *tree) line(sl *slot) ([]byte, error) {
	out, err := t.lines([]*slot{sl})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// lines returns the lines of slots' entries as pi writes them: an entry
// read from the file as JSON.stringify writes back its line (numbers,
// members and escapes as pi holds them, nothing re-encoded), an entry
// made here encoded as pi encodes it.
func (t *tree) lines(slots []*slot) ([][]byte, error) {
	out := make([][]byte, len(slots))
	var f *os.File
	defer func() {
		if f != nil && (t.src == nil || f != t.src.f) {
			_ = f.Close()
		}
	}()
	for i, sl := range slots {
		var err error
		switch {
		case sl.raw != nil:
			out[i], err = jsLine(sl.raw)
		case sl.n == 0:
			out[i], err = marshalLine(sl.entry)
		default:
			if f == nil {
				if f = t.src.f; f == nil {
					if f, err = os.Open(t.src.path); err != nil {
						f = nil
						return nil, fmt.Errorf("session: %w: %w", ErrChanged, err)
					}
				}
			}
			var raw []byte
			if raw, err = readLine(f, sl); err == nil {
				// The line must still be sl's: blank or another entry is a
				// file changed under the session.
				switch b, berr := decodeBase(raw); {
				case len(raw) == 0, raw[0] != '{' && !sl.noID, raw[0] == '{' && (berr != nil || b.ID != sl.base.ID):
					err = ErrChanged
				default:
					out[i], err = jsLine(raw)
				}
			}
		}
		if err != nil {
			return nil, fmt.Errorf("session: entry %s: %w", sl.base.ID, err)
		}
	}
	return out, nil
}

// dropParent makes sl's line one without a parentId, as pi writes an entry
// appended when its leaf was an entry without an ID.
func (t *tree) dropParent(sl *slot) error {
	line, err := marshalLine(sl.entry)
	if err != nil {
		return err
	}
	v, err := jsonv.Parse(line)
	if err != nil {
		return err
	}
	if v.Kind() != jsonv.Object {
		return errors.New("entry is not an object")
	}
	sl.raw = deleteMember(v, "parentId").AppendJSON(nil)
	sl.noParent = true
	return nil
}
