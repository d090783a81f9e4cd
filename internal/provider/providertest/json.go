package providertest

import (
	"encoding/json"
	"strconv"
)

// Quote is s as a JSON string, for building the events of a test body.
func Quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// NoEnv is an environment without a variable, an Options' Getenv that
// keeps the machine's settings out of a test.
func NoEnv(string) string { return "" }

// Truncated is s cut to its first n characters as pi-ai cuts a long
// error text: those characters, then "... [truncated M chars]" naming
// the rest. s must hold more than n characters.
func Truncated(s string, n int) string {
	r := []rune(s)
	return string(r[:n]) + "... [truncated " + strconv.Itoa(len(r)-n) + " chars]"
}
