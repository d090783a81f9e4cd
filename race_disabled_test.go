//go:build !race

package agentcore_test

// raceEnabled says the race detector is on (see race_enabled_test.go).
const raceEnabled = false
