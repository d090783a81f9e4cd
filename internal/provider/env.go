package provider

import "os"

// Getenv returns the environment read by an Options' Getenv field: f, or
// [os.Getenv] when f is nil.
func Getenv(f func(string) string) func(string) string {
	if f != nil {
		return f
	}
	return os.Getenv
}
