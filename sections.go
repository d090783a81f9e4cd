package agentcore

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Section is a named part of the system prompt, in [SystemMessage.Sections].
type Section struct {
	Name string
	Text string
	// Removed marks a removal: the section named Name is dropped from the
	// prompt (null on the wire). Text is then ignored.
	Removed bool
}

// Sections is an ordered set of named prompt sections. Its JSON is an object
// whose keys keep their order; a null value removes a section.
type Sections []Section

// MarshalJSON writes the sections as an object in order.
func (s Sections) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, sec := range s {
		if i > 0 {
			buf.WriteByte(',')
		}
		name, err := json.Marshal(sec.Name)
		if err != nil {
			return nil, err
		}
		buf.Write(name)
		buf.WriteByte(':')
		if sec.Removed {
			buf.WriteString("null")
			continue
		}
		text, err := json.Marshal(sec.Text)
		if err != nil {
			return nil, err
		}
		buf.Write(text)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads an object of strings and nulls, keeping key order. A
// repeated key keeps its first position and its last value, as in
// JavaScript.
func (s *Sections) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		*s = nil
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("agentcore: sections: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("agentcore: sections must be an object")
	}
	out := Sections{}
	for dec.More() {
		keyTok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("agentcore: sections: %w", err)
		}
		key, _ := keyTok.(string)
		var value *string
		if err := dec.Decode(&value); err != nil {
			return fmt.Errorf("agentcore: section %q: %w", key, err)
		}
		sec := Section{Name: key, Removed: value == nil}
		if value != nil {
			sec.Text = *value
		}
		if i := out.index(key); i >= 0 {
			out[i] = sec
		} else {
			out = append(out, sec)
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("agentcore: sections: %w", err)
	}
	*s = out
	return nil
}

// index returns the position of the section named name, or -1.
func (s Sections) index(name string) int {
	for i := range s {
		if s[i].Name == name {
			return i
		}
	}
	return -1
}
