// Command gen writes the chat catalog of package models from pi-ai's model
// data files (dist/providers/data/*.json, schema 6):
//
//	go run ./internal/gen [-data DIR] [-out catalog.tsv]
//
// Every chat entry of every provider file is written, in pi-ai's order
// (providers sorted by name, models in file order), in the table format
// catalog.go reads. It fails on a field it does not know, so a catalog of
// a later schema is not carried over half.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

const defaultData = "/work/oracle/node_modules/@earendil-works/pi-ai/dist/providers/data"

func main() {
	data := flag.String("data", defaultData, "pi-ai's providers/data directory")
	out := flag.String("out", "catalog.tsv", "file to write")
	flag.Parse()
	if err := run(*data, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir, out string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	if err := checkSchema(dir); err != nil {
		return err
	}
	var providers []provider
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), ".") {
			continue
		}
		p, err := readProvider(f)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		providers = append(providers, p)
	}
	slices.SortFunc(providers, func(a, b provider) int { return strings.Compare(a.name, b.name) })
	var buf bytes.Buffer
	if err := write(&buf, providers); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// checkSchema fails unless the data's manifest says schema version 6.
func checkSchema(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, ".manifest.json"))
	if err != nil {
		return err
	}
	var m struct {
		SchemaVersion int `json:"schemaVersion"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf(".manifest.json: %w", err)
	}
	if m.SchemaVersion != 6 {
		return fmt.Errorf("catalog schema %d, want 6", m.SchemaVersion)
	}
	return nil
}

// provider is one data file's chat models (none, for a provider of other
// kinds of model only), in the order pi-ai lists them.
type provider struct {
	name   string
	models []entry
}

// entry is one chat model: its fields by JSON name, raw.
type entry map[string]json.RawMessage

// readProvider reads the chat entries of one data file: an object of API
// groups, each an object of entries keyed "TYPE:ID". As pi-ai does, a
// later entry with an ID already seen replaces the earlier one in place.
func readProvider(file string) (provider, error) {
	p := provider{name: strings.TrimSuffix(filepath.Base(file), ".json")}
	data, err := os.ReadFile(file)
	if err != nil {
		return p, err
	}
	at := map[string]int{}
	err = eachMember(data, func(_ string, group json.RawMessage) error {
		return eachMember(group, func(_ string, raw json.RawMessage) error {
			var e entry
			if err := json.Unmarshal(raw, &e); err != nil {
				return err
			}
			if string(e["type"]) != `"chat"` {
				return nil
			}
			var id string
			if err := json.Unmarshal(e["id"], &id); err != nil {
				return fmt.Errorf("entry without an id: %w", err)
			}
			if i, ok := at[id]; ok {
				p.models[i] = e
				return nil
			}
			at[id] = len(p.models)
			p.models = append(p.models, e)
			return nil
		})
	})
	return p, err
}

// eachMember calls f on the members of a JSON object in their order.
func eachMember(data []byte, f func(key string, value json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if err := f(t.(string), v); err != nil {
			return fmt.Errorf("%s: %w", t, err)
		}
	}
	_, err := dec.Token()
	return err
}

// The columns of a model line after its id and name: a table column holds
// the position of the field's value in its table, or nothing when the
// entry has no such field.
var (
	tableColumns  = []string{"api", "baseUrl", "reasoning", "input", "cost", "headers", "compat", "thinkingLevelMap", "promptCache", "inputLimits"}
	numberColumns = []string{"contextWindow", "maxTokens"}
	// ignored are fields of some entries that pi-ai's Model type does not
	// declare (the radius provider's listing details).
	ignored = []string{"lab", "enabled", "providers", "free"}
	// fixed are fields every line shares.
	fixed = []string{"id", "name", "provider", "type"}
)

func write(w io.Writer, providers []provider) error {
	tables := map[string]*table{}
	for _, c := range tableColumns {
		tables[c] = &table{at: map[string]int{}}
	}
	var body bytes.Buffer
	for _, p := range providers {
		fmt.Fprintf(&body, "P\t%s\n", p.name)
		for _, e := range p.models {
			line, err := modelLine(p.name, e, tables)
			if err != nil {
				return err
			}
			body.WriteString("M\t")
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# The chat models of pi-ai 1.6.0, written by models/internal/gen from its data files. Do not edit.")
	fmt.Fprintln(bw, "# T\\tCOLUMN\\tJSON adds a value to COLUMN's table; P\\tPROVIDER starts a provider (a provider may have no chat")
	fmt.Fprintln(bw, "# models); a model line holds its fields, a table column the value's position in its table or nothing when absent:")
	fmt.Fprintf(bw, "# M\\tid\\tname\\t%s\\t%s\n", strings.Join(tableColumns, `\t`), strings.Join(numberColumns, `\t`))
	for _, c := range tableColumns {
		for _, v := range tables[c].values {
			fmt.Fprintf(bw, "T\t%s\t%s\n", c, v)
		}
	}
	bw.Write(body.Bytes())
	return bw.Flush()
}

// table holds the distinct values of one column, in order of first use.
type table struct {
	values []string
	at     map[string]int
}

func (t *table) add(v string) int {
	i, ok := t.at[v]
	if !ok {
		i = len(t.values)
		t.at[v] = i
		t.values = append(t.values, v)
	}
	return i
}

func modelLine(provider string, e entry, tables map[string]*table) (string, error) {
	var id, name, prov string
	for k, v := range map[string]*string{"id": &id, "name": &name, "provider": &prov} {
		if err := json.Unmarshal(e[k], v); err != nil {
			return "", fmt.Errorf("%s %s: %s: %w", provider, e["id"], k, err)
		}
	}
	if prov != provider {
		return "", fmt.Errorf("%s/%s: provider %q", provider, id, prov)
	}
	if strings.ContainsAny(id+name, "\t\n") {
		return "", fmt.Errorf("%s/%s: a tab or newline in the id or name", provider, id)
	}
	for k := range e {
		if !slices.Contains(tableColumns, k) && !slices.Contains(numberColumns, k) && !slices.Contains(ignored, k) && !slices.Contains(fixed, k) {
			return "", fmt.Errorf("%s/%s: unknown field %q", provider, id, k)
		}
	}
	cols := []string{id, name}
	for _, c := range tableColumns {
		v, ok := e[c]
		if !ok {
			cols = append(cols, "")
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, v); err != nil {
			return "", err
		}
		cols = append(cols, strconv.Itoa(tables[c].add(compact.String())))
	}
	for _, c := range numberColumns {
		n, err := strconv.Atoi(string(e[c]))
		if err != nil {
			return "", errors.Join(fmt.Errorf("%s/%s: %s is not an integer", provider, id, c), err)
		}
		cols = append(cols, strconv.Itoa(n))
	}
	return strings.Join(cols, "\t"), nil
}
