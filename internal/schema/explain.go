package schema

import (
	"math"
	"strconv"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// ValidationError is one failure of a value, as the reference reports it:
// where (a JSON Pointer into the arguments, "" for the arguments themselves),
// the failing keyword, and the message the model sees.
type ValidationError struct {
	Path    string `json:"path"`
	Keyword string `json:"keyword"`
	Message string `json:"message"`
}

// explainer walks the schema over a value that failed the check and reports
// each failing keyword at the value it failed on, in the reference's order.
type explainer struct {
	vd *Validator
}

func (x *explainer) errors(v jsonv.Value) []ValidationError {
	var out []ValidationError
	x.walk(x.vd.doc.root, defaultBase, v, "", &out)
	if len(out) == 0 {
		out = append(out, ValidationError{Path: "", Keyword: "schema", Message: "invalid"})
	}
	return out
}

func (x *explainer) walk(node jsonv.Value, base string, v jsonv.Value, path string, out *[]ValidationError) {
	switch node.Kind() {
	case jsonv.Bool:
		if !node.Bool() {
			*out = append(*out, ValidationError{path, "false", "no value is allowed here"})
		}
		return
	case jsonv.Object:
	default:
		return
	}
	b := x.vd.doc.baseOf(node, base)
	if x.vd.ok(node, v) {
		return
	}
	start := len(*out)
	push := func(keyword, message, at string) {
		*out = append(*out, ValidationError{at, keyword, message})
	}
	if t, ok := node.Get("type"); ok {
		types := []jsonv.Value{t}
		if t.Kind() == jsonv.Array {
			types = t.Items()
		}
		matched := false
		for _, name := range types {
			if name.Kind() == jsonv.String && isType(v, name.Str()) {
				matched = true
				break
			}
		}
		if !matched {
			push("type", "expected "+joinJS(types, " or ")+", got "+typeName(v), path)
			return
		}
	}
	if enum, ok := node.Get("enum"); ok && enum.Kind() == jsonv.Array && !inValues(enum.Items(), v) {
		push("enum", "expected one of "+listValues(enum.Items()), path)
	}
	if c, ok := node.Get("const"); ok && !jsonv.Equal(c, v) {
		push("const", "expected "+c.JSON(), path)
	}
	switch v.Kind() {
	case jsonv.String:
		if t, _ := node.Get("type"); !(t.Kind() == jsonv.String && t.Str() == "bytes") {
			x.walkString(node, v.Str(), path, push)
		}
	case jsonv.Number:
		walkNumber(node, v.Num(), path, push)
	case jsonv.Object:
		x.walkObject(node, b, v, path, out, push)
	case jsonv.Array:
		x.walkArray(node, b, v, path, out, push)
	}
	if all, ok := node.Get("allOf"); ok && all.Kind() == jsonv.Array {
		for _, s := range all.Items() {
			x.walk(s, b, v, path, out)
		}
	}
	if anyOf, ok := node.Get("anyOf"); ok && anyOf.Kind() == jsonv.Array {
		x.walkUnion(anyOf.Items(), b, v, path, out, false)
	}
	if oneOf, ok := node.Get("oneOf"); ok && oneOf.Kind() == jsonv.Array {
		x.walkUnion(oneOf.Items(), b, v, path, out, true)
	}
	if not, ok := node.Get("not"); ok && x.vd.ok(not, v) {
		push("not", "must not match the schema in not", path)
	}
	if cond, ok := node.Get("if"); ok {
		key := "else"
		if x.vd.ok(cond, v) {
			key = "then"
		}
		if branch, ok := node.Get(key); ok {
			x.walk(branch, b, v, path, out)
		}
	}
	if ref, ok := node.Get("$ref"); ok && ref.Kind() == jsonv.String {
		x.walkRef(node, ref.Str(), v, path, out)
	}
	if len(*out) == start && (node.Has("unevaluatedProperties") || node.Has("unevaluatedItems")) {
		x.walkUnevaluated(node, b, v, path, out)
	}
	if len(*out) == start && isStringKeyword(node, "$dynamicRef") {
		push("$dynamicRef", "does not match the dynamically referenced schema", path)
	}
}

func (x *explainer) walkRef(node jsonv.Value, ref string, v jsonv.Value, path string, out *[]ValidationError) {
	t, ok := x.vd.doc.refs[node]
	if !ok || t.unresolved {
		*out = append(*out, ValidationError{path, "$ref", "unresolved reference " + ref})
		return
	}
	x.walk(t.node, t.base, v, path, out)
}

func (x *explainer) walkString(node jsonv.Value, s, path string, push func(string, string, string)) {
	n := float64(jsonv.CodePoints(s))
	if min, ok := numberKeyword(node, "minLength"); ok && n < min {
		push("minLength", "expected at least "+jsonv.FormatNumber(min)+" characters", path)
	}
	if max, ok := numberKeyword(node, "maxLength"); ok && n > max {
		push("maxLength", "expected at most "+jsonv.FormatNumber(max)+" characters", path)
	}
	if p, ok := node.Get("pattern"); ok && p.Kind() == jsonv.String {
		if re := x.vd.regex(p.Str()); re != nil && !re.MatchString(s) {
			push("pattern", "expected to match "+p.Str(), path)
		}
	}
	if f, ok := node.Get("format"); ok && f.Kind() == jsonv.String {
		if check := referenceFormat(f.Str()); check != nil && !check(s) {
			push("format", "expected format "+f.Str(), path)
		}
	}
}

func walkNumber(node jsonv.Value, n float64, path string, push func(string, string, string)) {
	if b, ok := numberKeyword(node, "minimum"); ok && n < b {
		push("minimum", "expected >= "+jsonv.FormatNumber(b), path)
	}
	if b, ok := numberKeyword(node, "maximum"); ok && n > b {
		push("maximum", "expected <= "+jsonv.FormatNumber(b), path)
	}
	if b, ok := numberKeyword(node, "exclusiveMinimum"); ok && n <= b {
		push("exclusiveMinimum", "expected > "+jsonv.FormatNumber(b), path)
	}
	if b, ok := numberKeyword(node, "exclusiveMaximum"); ok && n >= b {
		push("exclusiveMaximum", "expected < "+jsonv.FormatNumber(b), path)
	}
	if d, ok := numberKeyword(node, "multipleOf"); ok && !isMultiple(n, d) {
		push("multipleOf", "expected a multiple of "+jsonv.FormatNumber(d), path)
	}
}

func numberKeyword(node jsonv.Value, key string) (float64, bool) {
	v, ok := node.Get(key)
	if !ok || v.Kind() != jsonv.Number {
		return 0, false
	}
	return v.Num(), true
}

func (x *explainer) walkArray(node jsonv.Value, b string, v jsonv.Value, path string, out *[]ValidationError, push func(string, string, string)) {
	var prefix []jsonv.Value
	items, hasItems := node.Get("items")
	rest, hasRest := items, hasItems
	if hasItems && items.Kind() == jsonv.Array {
		prefix = items.Items()
		rest, hasRest = node.Get("additionalItems")
	} else if p, ok := node.Get("prefixItems"); ok && p.Kind() == jsonv.Array {
		prefix = p.Items()
	}
	list := v.Items()
	for i, it := range list {
		at := path + "/" + strconv.Itoa(i)
		if i < len(prefix) {
			x.walk(prefix[i], b, it, at, out)
		} else if hasRest {
			x.walk(rest, b, it, at, out)
		}
	}
	n := float64(len(list))
	if min, ok := numberKeyword(node, "minItems"); ok && n < min {
		push("minItems", "expected at least "+jsonv.FormatNumber(min)+" items", path)
	}
	if max, ok := numberKeyword(node, "maxItems"); ok && n > max {
		push("maxItems", "expected at most "+jsonv.FormatNumber(max)+" items", path)
	}
	if u, ok := node.Get("uniqueItems"); ok && u.Kind() == jsonv.Bool && u.Bool() && !unique(list) {
		push("uniqueItems", "expected unique items", path)
	}
	if contains, ok := node.Get("contains"); ok {
		min, hasMin := numberKeyword(node, "minContains")
		if !hasMin {
			min = 1
		}
		max, hasMax := numberKeyword(node, "maxContains")
		if !hasMax {
			max = math.Inf(1)
		}
		count := 0.0
		for _, it := range list {
			if x.vd.ok(contains, it) {
				count++
			}
		}
		if count < min || count > max {
			push("contains", containsMessage(min, max), path)
		}
	}
}

func unique(list []jsonv.Value) bool {
	for i := 1; i < len(list); i++ {
		for j := 0; j < i; j++ {
			if jsonv.Equal(list[i], list[j]) {
				return false
			}
		}
	}
	return true
}

func containsMessage(min, max float64) string {
	plural := func(n float64) string {
		if n == 1 {
			return "item"
		}
		return "items"
	}
	switch {
	case math.IsInf(max, 1):
		return "expected at least " + jsonv.FormatNumber(min) + " matching " + plural(min)
	case min == 0:
		return "expected at most " + jsonv.FormatNumber(max) + " matching " + plural(max)
	}
	return "expected between " + jsonv.FormatNumber(min) + " and " + jsonv.FormatNumber(max) + " matching items"
}

// walkUnion explains an anyOf or oneOf that failed: more than one match for a
// oneOf; for a tagged union, the branch the tag selects; otherwise the branch
// that declares most of an object's properties, then the one whose first
// error is deepest.
func (x *explainer) walkUnion(branches []jsonv.Value, b string, v jsonv.Value, path string, out *[]ValidationError, exactlyOne bool) {
	matches := 0
	for _, s := range branches {
		if x.vd.ok(s, v) {
			matches++
		}
	}
	if matches == 1 || (!exactlyOne && matches > 0) {
		return
	}
	keyword := "anyOf"
	if exactlyOne {
		keyword = "oneOf"
	}
	if matches > 1 {
		*out = append(*out, ValidationError{path, keyword, "matches more than one alternative"})
		return
	}
	if key, values, ok := x.tagOf(branches); ok && v.Kind() == jsonv.Object {
		tag, present := v.Get(key)
		for i, t := range values {
			if present && jsonv.StrictEqual(t, tag) {
				x.walk(branches[i], b, v, path, out)
				return
			}
		}
		*out = append(*out, ValidationError{pointer(path, key), keyword, "expected one of " + listValues(values)})
		return
	}
	var best []ValidationError
	bestDeclared := -1
	for _, s := range branches {
		var errs []ValidationError
		x.walk(s, b, v, path, &errs)
		if len(errs) == 0 {
			continue
		}
		declared := 0
		if v.Kind() == jsonv.Object {
			declared = x.declaredKeys(s, v)
		}
		if best == nil || declared > bestDeclared ||
			(declared == bestDeclared && utf16Len(errs[0].Path) > utf16Len(best[0].Path)) {
			best, bestDeclared = errs, declared
		}
	}
	if best == nil {
		best = []ValidationError{{path, keyword, "matches no alternative"}}
	}
	*out = append(*out, best...)
}

// resolved returns a branch, or its $ref target when it has one.
func (x *explainer) resolved(s jsonv.Value) jsonv.Value {
	if s.Kind() == jsonv.Object && isStringKeyword(s, "$ref") {
		t := x.vd.doc.refs[s]
		if t.unresolved {
			return jsonv.BoolValue(false)
		}
		return t.node
	}
	return s
}

func (x *explainer) declaredKeys(s, v jsonv.Value) int {
	properties, _ := schemaMap(x.resolved(s), "properties")
	n := 0
	for _, m := range v.Members() {
		if properties.Has(m.Key) {
			n++
		}
	}
	return n
}

// tagOf finds the first property of the first branch on which every branch
// has a distinct primitive const.
func (x *explainer) tagOf(branches []jsonv.Value) (string, []jsonv.Value, bool) {
	if len(branches) == 0 {
		return "", nil, false
	}
	resolved := make([]jsonv.Value, len(branches))
	for i, s := range branches {
		resolved[i] = x.resolved(s)
	}
	first, ok := schemaMap(resolved[0], "properties")
	if !ok {
		return "", nil, false
	}
	for _, m := range first.Members() {
		values := make([]jsonv.Value, 0, len(resolved))
		for _, s := range resolved {
			props, _ := schemaMap(s, "properties")
			tag, _ := props.Get(m.Key)
			c, ok := tag.Get("const")
			if !ok || c.Kind() == jsonv.Array || c.Kind() == jsonv.Object || containsStrict(values, c) {
				values = nil
				break
			}
			values = append(values, c)
		}
		if values != nil {
			return m.Key, values, true
		}
	}
	return "", nil, false
}

func containsStrict(list []jsonv.Value, v jsonv.Value) bool {
	for _, x := range list {
		if jsonv.StrictEqual(x, v) {
			return true
		}
	}
	return false
}
