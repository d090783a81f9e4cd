package session

import (
	"math"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
)

// A file of version 1 or 2 is migrated as pi migrates it: on the values
// JSON.parse makes of its lines, changed in place, so that the rewritten
// file is the one pi writes, every line kept (members this package does
// not know, numbers, lines that are no entries).

// headerVersion is the version of a header as pi reads it (header.version
// ?? 1), converted to a number as pi's comparisons convert it.
func headerVersion(h jsonv.Value) float64 {
	v, ok := h.Get("version")
	if !ok || v.IsNull() {
		return 1
	}
	return toNumber(v)
}

// migrateValues brings the values of a file, its header first and then
// every line pi keeps, to version 3 as pi does, in place. It reports
// whether pi rewrites the file: whenever the version is not at least 3,
// even when it is no number and nothing else changes. newID draws an
// entry ID not in taken.
//
// Version 1 to 2: every entry gets a new ID and the previous entry as its
// parent, and a compaction's numeric firstKeptEntryIndex (an index into
// the values, the header being 0) becomes the ID of the value there, or
// nothing when there is none or it has no ID; an index of another type
// is left as it is. Version 2 to 3: the message role "hookMessage"
// becomes "custom". Each header's version is set as each step ends.
//
// One departure: pi fails on a version 1 file with a line holding a
// string, a number or true (it cannot give it an ID); such a line is kept
// here as it is, with no ID, and the next entry's parent is the entry
// before it.
func migrateValues(vals []jsonv.Value, newID func(taken map[string]bool) string) bool {
	v := headerVersion(vals[0])
	if v >= CurrentVersion {
		return false
	}
	if v < 2 {
		migrateV1(vals, newID)
	}
	if v < 3 {
		migrateV2(vals)
	}
	return true
}

func isType(v jsonv.Value, typ string) bool {
	t, ok := v.Get("type")
	return ok && t.Kind() == jsonv.String && t.Str() == typ
}

func migrateV1(vals []jsonv.Value, newID func(map[string]bool) string) {
	// pi checks its new IDs against a set it never fills.
	taken := map[string]bool{}
	prev := jsonv.NullValue()
	// arrayIDs are the IDs pi gives arrays: properties JSON.stringify
	// does not write.
	arrayIDs := map[int]string{}
	for i, v := range vals {
		if isType(v, "session") {
			vals[i] = setMember(v, "version", jsonv.NumberValue(2))
			continue
		}
		switch v.Kind() {
		case jsonv.Array:
			id := newID(taken)
			arrayIDs[i] = id
			prev = jsonv.StringValue(id)
			continue
		case jsonv.Object:
		default:
			continue
		}
		id := jsonv.StringValue(newID(taken))
		v = setMember(v, "id", id)
		v = setMember(v, "parentId", prev)
		prev = id
		if isType(v, "compaction") {
			if idx, ok := v.Get("firstKeptEntryIndex"); ok && idx.Kind() == jsonv.Number {
				n := idx.Num()
				if n == 0 && math.Signbit(n) {
					n = 0
				}
				if k, ok := arrayIndex(n, len(vals)); ok {
					target := vals[k]
					if k == i {
						target = v
					}
					if !isType(target, "session") {
						var tid jsonv.Value
						found := false
						switch target.Kind() {
						case jsonv.Object:
							tid, found = target.Get("id")
						case jsonv.Array:
							var s string
							s, found = arrayIDs[k]
							tid = jsonv.StringValue(s)
						}
						if found {
							v = setMember(v, "firstKeptEntryId", tid)
						} else {
							// pi assigns undefined, which JSON.stringify leaves out.
							v = deleteMember(v, "firstKeptEntryId")
						}
					}
				}
				v = deleteMember(v, "firstKeptEntryIndex")
			}
		}
		vals[i] = v
	}
}

func migrateV2(vals []jsonv.Value) {
	for i, v := range vals {
		if isType(v, "session") {
			vals[i] = setMember(v, "version", jsonv.NumberValue(3))
			continue
		}
		if !isType(v, "message") {
			continue
		}
		m, ok := v.Get("message")
		if !ok || m.Kind() != jsonv.Object {
			continue
		}
		if r, ok := m.Get("role"); ok && r.Kind() == jsonv.String && r.Str() == "hookMessage" {
			vals[i] = setMember(v, "message", setMember(m, "role", jsonv.StringValue("custom")))
		}
	}
}

// migrate migrates c.values as pi does and decodes the result into c.t,
// every entry in memory; c.lines become the lines of the file pi writes,
// the header first.
func (c *contents) migrate(reg *agentcore.MessageRegistry, newID func(map[string]bool) string) {
	c.migrated = migrateValues(c.values, newID)
	h, _ := decodeHeader(c.values[0].AppendJSON(nil))
	c.header = h
	c.t = newTree(nil)
	c.lines = make([][]byte, len(c.values))
	for i, v := range c.values {
		line := v.AppendJSON(nil)
		c.lines[i] = line
		if i == 0 || isType(v, "session") {
			continue
		}
		e, b, err := decodeEntry(line, reg)
		if err != nil {
			continue // not reached: every value is a JSON value pi keeps
		}
		sl := &slot{base: *e.Base(), typ: e.Type(), entry: e, raw: line, noID: b.noID, noParent: b.noParent}
		sl.role, sl.model = summarize(e)
		c.t.addSlot(sl)
	}
	c.values = nil
}
