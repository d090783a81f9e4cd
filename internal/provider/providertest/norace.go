//go:build !race

package providertest

// raceEnabled says the race detector is on (see race.go).
const raceEnabled = false
