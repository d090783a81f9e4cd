package schema

import (
	"encoding/json"
	"sync"
	"sync/atomic"
)

// maxCached bounds the compile cache; past it the cache starts over.
const maxCached = 1024

// cache maps schema bytes to their compile. Readers load the current map
// without locking; writers, holding mu, publish a grown copy. Maps are never
// modified once published.
var cache struct {
	mu sync.Mutex
	m  atomic.Pointer[map[string]*cacheEntry]
}

// recent holds entries Compile returned, each in the slot of a cheap digest
// of its schema bytes: a run repeats its tools' schemas, whose bytes compare
// faster than the map hashes them. A slot is written only when it holds
// another schema, so tools used in turn, and agents running at once, keep
// their slots and only read them.
var recent [64]atomic.Pointer[cacheEntry]

// recentSlot returns the slot of recent for the schema bytes.
func recentSlot(schema []byte) *atomic.Pointer[cacheEntry] {
	n := len(schema)
	d := n
	if n > 0 {
		d += int(schema[n/2])<<1 + int(schema[n*3/4])
	}
	return &recent[d%len(recent)]
}

type cacheEntry struct {
	key  string // the schema bytes
	once sync.Once
	v    *Validator
	err  error
}

// Compile compiles a JSON Schema (an object or a boolean) for Parse. The same
// schema bytes compile once: later calls, from any goroutine, share the
// result, failures included, and look it up without allocating or locking. A
// schema that is not JSON, not a schema, or that the compiler rejects (an
// invalid keyword value, a pattern RE2 cannot express, a $ref cycle) is an
// error naming the problem. A $ref that names nothing does not fail the
// compile; as in the reference, it rejects only the values at its place,
// with the error "unresolved reference REF".
func Compile(schema json.RawMessage) (*Validator, error) {
	e := cachedEntry(schema)
	e.once.Do(func() { e.v, e.err = compile(schema) })
	return e.v, e.err
}

// cachedEntry returns the cache entry of the schema bytes, adding it.
func cachedEntry(schema json.RawMessage) *cacheEntry {
	slot := recentSlot(schema)
	if e := slot.Load(); e != nil && e.key == string(schema) {
		return e
	}
	e := lookUp(schema)
	slot.Store(e)
	return e
}

// lookUp returns the cache entry of the schema bytes from the map, adding it.
func lookUp(schema json.RawMessage) *cacheEntry {
	if m := cache.m.Load(); m != nil {
		// string(schema) in the index expression does not allocate.
		if e, ok := (*m)[string(schema)]; ok {
			return e
		}
	}
	cache.mu.Lock()
	defer cache.mu.Unlock()
	var old map[string]*cacheEntry
	if m := cache.m.Load(); m != nil {
		old = *m
	}
	if e, ok := old[string(schema)]; ok {
		return e
	}
	if len(old) >= maxCached {
		old = nil
	}
	grown := make(map[string]*cacheEntry, len(old)+1)
	for k, e := range old {
		grown[k] = e
	}
	e := &cacheEntry{key: string(schema)}
	grown[e.key] = e
	cache.m.Store(&grown)
	return e
}
