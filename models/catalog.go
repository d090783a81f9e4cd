package models

//go:generate go run ./internal/gen -out catalog.tsv

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/pi-go/agentcore"
)

// catalogData is the chat catalog of pi-ai 1.6.0 in the table format
// internal/gen writes (its header says how to read it).
//
//go:embed catalog.tsv
var catalogData string

// providerModels are one provider's models in order, with an index by ID.
type providerModels struct {
	list  []agentcore.Model
	index map[string]int
}

// put adds m, or replaces the model with its ID in place.
func (p *providerModels) put(m agentcore.Model) {
	if i, ok := p.index[m.ID]; ok {
		p.list[i] = m
		return
	}
	p.index[m.ID] = len(p.list)
	p.list = append(p.list, m)
}

func newProviderModels(n int) *providerModels {
	return &providerModels{list: make([]agentcore.Model, 0, n), index: make(map[string]int, n)}
}

// catalog is the parsed built-in catalog. Its models share their slices,
// maps and pointers; they are cloned on the way out.
type catalog struct {
	providers []string
	models    map[string]*providerModels
}

// builtin parses the embedded catalog once, on first use.
var builtin = sync.OnceValues(func() (*catalog, error) { return parseCatalog(catalogData) })

// setter sets one field of a model to a parsed table value.
type setter func(*agentcore.Model)

// columns decode the values of each table column, in the order of a
// model line after its id and name.
var columns = []struct {
	name   string
	decode func(raw string) (setter, error)
}{
	{"api", field(func(m *agentcore.Model, v string) { m.API = v })},
	{"baseUrl", field(func(m *agentcore.Model, v string) { m.BaseURL = v })},
	{"reasoning", field(func(m *agentcore.Model, v bool) { m.Reasoning = v })},
	{"input", field(func(m *agentcore.Model, v []string) { m.Input = v })},
	{"cost", field(func(m *agentcore.Model, v agentcore.ModelCost) { m.Cost = v })},
	{"headers", field(func(m *agentcore.Model, v map[string]string) { m.Headers = v })},
	{"compat", func(raw string) (setter, error) {
		v := json.RawMessage(raw)
		return func(m *agentcore.Model) { m.Compat = v }, nil
	}},
	{"thinkingLevelMap", field(func(m *agentcore.Model, v agentcore.ThinkingLevelMap) { m.ThinkingLevelMap = v })},
	{"promptCache", field(func(m *agentcore.Model, v *agentcore.ModelPromptCache) { m.PromptCache = v })},
	{"inputLimits", field(func(m *agentcore.Model, v *agentcore.ModelInputLimits) { m.InputLimits = v })},
}

// field decodes a table value as T and sets it with set.
func field[T any](set func(*agentcore.Model, T)) func(string) (setter, error) {
	return func(raw string) (setter, error) {
		var v T
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			return nil, err
		}
		return func(m *agentcore.Model) { set(m, v) }, nil
	}
}

// parseCatalog reads the table format of internal/gen.
func parseCatalog(data string) (*catalog, error) {
	c := &catalog{models: map[string]*providerModels{}}
	tables := map[string][]setter{}
	var current *providerModels
	for n, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
		kind, rest, _ := strings.Cut(line, "\t")
		var err error
		switch kind {
		case "#":
		case "T":
			name, raw, _ := strings.Cut(rest, "\t")
			err = addValue(tables, name, raw)
		case "P":
			current = newProviderModels(0)
			c.providers = append(c.providers, rest)
			c.models[rest] = current
		case "M":
			if current == nil {
				err = fmt.Errorf("a model before any provider")
				break
			}
			var m agentcore.Model
			m, err = parseModel(rest, tables)
			m.Provider = c.providers[len(c.providers)-1]
			current.put(m)
		default:
			if !strings.HasPrefix(line, "#") {
				err = fmt.Errorf("unknown line kind %q", kind)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("models: catalog line %d: %w", n+1, err)
		}
	}
	return c, nil
}

func addValue(tables map[string][]setter, name, raw string) error {
	for _, col := range columns {
		if col.name == name {
			set, err := col.decode(raw)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			tables[name] = append(tables[name], set)
			return nil
		}
	}
	return fmt.Errorf("unknown column %q", name)
}

// parseModel reads a model line: id, name, the table columns, then
// contextWindow and maxTokens.
func parseModel(line string, tables map[string][]setter) (agentcore.Model, error) {
	f := strings.Split(line, "\t")
	if len(f) != 2+len(columns)+2 {
		return agentcore.Model{}, fmt.Errorf("%d fields, want %d", len(f), 2+len(columns)+2)
	}
	m := agentcore.Model{ID: f[0], Name: f[1], Type: "chat"}
	for i, col := range columns {
		s := f[2+i]
		if s == "" {
			continue
		}
		at, err := strconv.Atoi(s)
		if err != nil || at < 0 || at >= len(tables[col.name]) {
			return m, fmt.Errorf("%s: %s: no such table value %q", m.ID, col.name, s)
		}
		tables[col.name][at](&m)
	}
	var err error
	if m.ContextWindow, err = strconv.Atoi(f[len(f)-2]); err != nil {
		return m, fmt.Errorf("%s: contextWindow: %w", m.ID, err)
	}
	if m.MaxTokens, err = strconv.Atoi(f[len(f)-1]); err != nil {
		return m, fmt.Errorf("%s: maxTokens: %w", m.ID, err)
	}
	return m, nil
}
