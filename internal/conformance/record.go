package conformance

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"sync"
)

// recorder collects normalized trace records. It is safe for concurrent use:
// hooks of a parallel batch record from several goroutines.
type recorder struct {
	mu      sync.Mutex
	enabled bool
	lines   []string
}

// out appends rec, normalized, unless recording is off.
func (r *recorder) out(rec any) {
	if !r.enabled {
		return
	}
	line := Normalize(rec)
	r.mu.Lock()
	r.lines = append(r.lines, line)
	r.mu.Unlock()
}

// Normalize renders a trace record as FORMAT.md says: timestamp keys dropped
// at any depth, durationMs values replaced by "*", keys sorted, compact, no
// HTML escaping.
func Normalize(rec any) string {
	raw, err := marshalJS(rec)
	if err != nil {
		return `{"type":"marshal_error","error":` + string(mustJS(err.Error())) + `}`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return `{"type":"marshal_error","error":` + string(mustJS(err.Error())) + `}`
	}
	out, _ := marshalJS(normalizeValue(v))
	return string(out)
}

func normalizeValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			switch k {
			case "timestamp":
				delete(v, k)
			case "durationMs":
				v[k] = "*"
			default:
				v[k] = normalizeValue(x)
			}
		}
		return v
	case []any:
		for i, x := range v {
			v[i] = normalizeValue(x)
		}
		return v
	}
	return v
}

// marshalJS marshals v compactly without HTML escaping.
func marshalJS(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func mustJS(v any) []byte {
	b, _ := marshalJS(v)
	return b
}

// CanonicalTrace prepares a trace for comparison like compare.py: step
// errors lose their text, validation messages keep their first line, and
// exec records are moved to the end as a sorted set per turn.
func CanonicalTrace(trace string) ([]string, error) {
	var seq, execs []string
	turn := 0
	for line := range strings.SplitSeq(trace, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var rec map[string]any
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&rec); err != nil {
			return nil, err
		}
		if rec["type"] == "step_error" {
			rec["error"] = "*"
		}
		canonValidation(rec)
		b, _ := marshalJS(rec)
		switch rec["type"] {
		case "turn_start":
			turn++
		case "exec":
			execs = append(execs, execKey(turn, string(b)))
			continue
		}
		seq = append(seq, string(b))
	}
	sort.Strings(execs)
	return append(seq, execs...), nil
}

func execKey(turn int, rec string) string {
	return "exec in turn " + strings.Repeat("0", 6-len(itoa(turn))) + itoa(turn) + ": " + rec
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

const validationPrefix = `Validation failed for tool "`

func canonValidation(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = canonValidation(x)
		}
	case []any:
		for i, x := range v {
			v[i] = canonValidation(x)
		}
	case string:
		if strings.HasPrefix(v, validationPrefix) {
			first, _, _ := strings.Cut(v, "\n")
			return first
		}
	}
	return v
}
