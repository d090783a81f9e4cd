package models

import "github.com/pi-go/agentcore"

// defaultRegistry is the registry the package functions read.
var defaultRegistry = Builtin()

// Default returns the registry [Lookup], [List] and [Providers] read: the
// built-in catalog, with whatever the program added to it.
func Default() *Registry { return defaultRegistry }

// Lookup returns the model of provider with ID id from the [Default]
// registry, and whether there is one, as pi-ai's getModel does.
func Lookup(provider, id string) (agentcore.Model, bool) { return defaultRegistry.Lookup(provider, id) }

// List returns the models of provider from the [Default] registry, in
// pi-ai's order; nil for a provider it does not have.
func List(provider string) []agentcore.Model { return defaultRegistry.List(provider) }

// Providers returns the providers of the [Default] registry, sorted.
func Providers() []string { return defaultRegistry.Providers() }
