//go:build race

package agentcore_test

// raceEnabled says the race detector is on: tests that stream hundreds of
// megabytes skip, being an order of magnitude slower under it.
const raceEnabled = true
