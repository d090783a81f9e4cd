package providertest

import "encoding/json"

// Quote is s as a JSON string, for building the events of a test body.
func Quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// NoEnv is an environment without a variable, an Options' Getenv that
// keeps the machine's settings out of a test.
func NoEnv(string) string { return "" }
