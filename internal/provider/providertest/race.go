//go:build race

package providertest

// raceEnabled says the race detector is on: tests that stream tens of
// megabytes skip, being an order of magnitude slower under it.
const raceEnabled = true
