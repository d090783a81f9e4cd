package schema

import (
	"encoding/json"
	"sync"
)

// maxCached bounds the compile cache; past it the cache starts over.
const maxCached = 1024

// cache maps schema bytes to their compile.
var cache struct {
	mu sync.Mutex
	m  map[string]*cacheEntry
}

// cacheEntry is one schema's compile, made once by the first Compile of its
// bytes; the others wait for it.
type cacheEntry struct {
	once sync.Once
	v    *Validator
	err  error
}

// Compile compiles a JSON Schema (an object or a boolean) for Parse. The same
// schema bytes compile once: later calls, from any goroutine, share the
// result, failures included (up to maxCached schemas; past them the cache
// starts over). Compile does not keep schema. A schema that is not JSON, not
// a schema, or that the compiler rejects (an invalid keyword value, a pattern
// RE2 cannot express, a $ref cycle) is an error naming the problem. A $ref
// that names nothing does not fail the compile; as in the reference, it
// rejects only the values at its place, with the error "unresolved reference
// REF". A schema over [MaxBytes], [MaxDepth] or [MaxSubschemas] is an error
// wrapping [ErrTooLarge]; the first two are checked before the cache.
func Compile(schema json.RawMessage) (*Validator, error) {
	if err := checkText(schema); err != nil {
		return nil, err
	}
	e := cachedEntry(schema)
	e.once.Do(func() { e.v, e.err = compile(schema) })
	return e.v, e.err
}

// cachedEntry returns the cache entry of the schema bytes, adding it.
func cachedEntry(schema json.RawMessage) *cacheEntry {
	cache.mu.Lock()
	defer cache.mu.Unlock()
	if e, ok := cache.m[string(schema)]; ok {
		return e
	}
	if cache.m == nil || len(cache.m) >= maxCached {
		cache.m = make(map[string]*cacheEntry)
	}
	e := &cacheEntry{}
	cache.m[string(schema)] = e
	return e
}
