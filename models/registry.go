package models

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/pi-go/agentcore"
)

// ErrInvalidModel is returned, wrapped, for a model a [Registry] cannot
// hold: one without an ID or provider, or one given for another provider.
var ErrInvalidModel = errors.New("models: invalid model")

// Registry is a set of providers and their chat models, as pi-ai's Models
// collection: a program starts from the built-in catalog ([Builtin]) or
// from nothing (the zero Registry), then adds its own providers and
// models, replaces a provider's models or removes a provider. A Registry
// is safe for concurrent use. Models go in and come out as copies: what
// a caller does to a model it passed or got back does not change the
// registry.
type Registry struct {
	// builtin says the registry starts from the built-in catalog.
	builtin bool

	mu sync.RWMutex
	// own holds the providers this registry set or changed, by name; a
	// nil entry hides a built-in provider it deleted.
	own map[string]*providerModels
}

// Builtin returns a new registry holding pi-ai 1.6.0's chat catalog. The
// catalog is read on the first lookup of any registry, once.
func Builtin() *Registry { return &Registry{builtin: true} }

// provider returns the models of a provider, or nil; the caller holds mu.
func (r *Registry) provider(name string) *providerModels {
	if p, ok := r.own[name]; ok {
		return p
	}
	if !r.builtin {
		return nil
	}
	c, err := builtin()
	if err != nil {
		return nil
	}
	return c.models[name]
}

// Lookup returns the model of provider with ID id, and whether there is
// one.
func (r *Registry) Lookup(provider, id string) (agentcore.Model, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	p := r.provider(provider)
	if p == nil {
		return agentcore.Model{}, false
	}
	i, ok := p.index[id]
	if !ok {
		return agentcore.Model{}, false
	}
	return clone(p.list[i]), true
}

// List returns the models of provider in the catalog's order, models
// added later at the end; nil for a provider it does not have.
func (r *Registry) List(provider string) []agentcore.Model {
	r.mu.RLock()
	defer r.mu.RUnlock()
	p := r.provider(provider)
	if p == nil {
		return nil
	}
	out := make([]agentcore.Model, len(p.list))
	for i, m := range p.list {
		out[i] = clone(m)
	}
	return out
}

// Providers returns the names of the providers it has, sorted, including
// providers that have no chat model.
func (r *Registry) Providers() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var names []string
	if r.builtin {
		if c, err := builtin(); err == nil {
			names = slices.Clone(c.providers)
		}
	}
	for name, p := range r.own {
		if p != nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	return slices.DeleteFunc(names, func(name string) bool { p, ok := r.own[name]; return ok && p == nil })
}

// Add adds models to their providers, creating a provider it does not
// have and keeping the other models of one it has: a model with the ID of
// one the provider has replaces it in place, a new one goes at the end.
// It adds none unless every model has an ID and a provider
// ([ErrInvalidModel]).
func (r *Registry) Add(models ...agentcore.Model) error {
	for _, m := range models {
		if err := check(m, m.Provider); err != nil {
			return err
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range models {
		p := r.ownProvider(m.Provider)
		r.own[m.Provider] = p
		p.put(clone(m))
	}
	return nil
}

// ownProvider returns a copy of the provider's models this registry may
// change: its own, or a copy of the catalog's. The caller holds mu.
func (r *Registry) ownProvider(name string) *providerModels {
	if r.own == nil {
		r.own = map[string]*providerModels{}
	}
	if p := r.own[name]; p != nil {
		return p
	}
	base := r.provider(name)
	if base == nil {
		return newProviderModels(0)
	}
	p := newProviderModels(len(base.list))
	for _, m := range base.list {
		p.put(m)
	}
	return p
}

// SetProvider makes models the models of provider, in their order,
// replacing whatever it had, as pi-ai's setProvider does; with no models
// the provider is kept, empty. A model with no provider is given this
// one. It changes nothing when a model has no ID or names another
// provider ([ErrInvalidModel]).
func (r *Registry) SetProvider(provider string, models []agentcore.Model) error {
	if provider == "" {
		return fmt.Errorf("%w: no provider name", ErrInvalidModel)
	}
	p := newProviderModels(len(models))
	for _, m := range models {
		if m.Provider == "" {
			m.Provider = provider
		}
		if err := check(m, provider); err != nil {
			return err
		}
		p.put(clone(m))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.own == nil {
		r.own = map[string]*providerModels{}
	}
	r.own[provider] = p
	return nil
}

// DeleteProvider removes provider and its models.
func (r *Registry) DeleteProvider(provider string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.own == nil {
		r.own = map[string]*providerModels{}
	}
	r.own[provider] = nil
}

// check reports whether m can be a model of provider.
func check(m agentcore.Model, provider string) error {
	switch {
	case m.ID == "":
		return fmt.Errorf("%w: a model of provider %q has no ID", ErrInvalidModel, m.Provider)
	case m.Provider == "":
		return fmt.Errorf("%w: model %q has no provider", ErrInvalidModel, m.ID)
	case m.Provider != provider:
		return fmt.Errorf("%w: model %q of provider %q given for provider %q", ErrInvalidModel, m.ID, m.Provider, provider)
	}
	return nil
}
