package conformance

import "github.com/pi-go/agentcore"

// Target is what the actions of a scenario's model responses, tools and
// hooks act on: an [*agentcore.Agent] in Play, a stand-in for another
// engine in a [Setup].
type Target interface {
	Steer(agentcore.Message)
	FollowUp(agentcore.Message)
	Abort()
}

// Setup is a scenario's configuration for an engine other than the Agent,
// such as a durable session replaying agentcore's loop: the player of that
// engine plays the steps itself. Nothing is recorded.
type Setup struct {
	// Options are those Play gives its Agent: the initial transcript, the
	// model, the tools, the hooks and the scripted model as StreamFn. They
	// are the Setup's, one engine's: a second engine needs a Setup of its
	// own (the scripted model answers each request once).
	Options agentcore.Options

	p *player
}

// NewSetup configures s for an engine whose actions go to t.
//
// With derive set, a hook whose rules are keyed by call number
// (finishTurn, prepareNextTurn, prepareRequest) picks its rule by a number
// derived from its arguments instead of counting its calls, so that an
// engine that calls hooks more than once for the same turn (a replayed
// loop) picks the same rule every time: 1 plus the number of assistant
// messages in the context it is given, the turn's own message excluded.
// That number equals the count only in some scenarios; [Setup.Mismatch]
// says whether it did in a play.
func NewSetup(s *Scenario, t Target, derive bool) (*Setup, error) {
	p := &player{s: s, rec: &recorder{}, counters: map[string]int{}, target: t, derive: derive}
	opts, err := p.options()
	if err != nil {
		return nil, err
	}
	return &Setup{Options: opts, p: p}, nil
}

// Mismatch describes the first hook call whose derived number differed
// from its count, "" when none did (or derive was not set). It is only
// meaningful after a play on an engine that calls each hook once per
// turn, such as the Agent.
func (s *Setup) Mismatch() string {
	s.p.mu.Lock()
	defer s.p.mu.Unlock()
	return s.p.mismatch
}

// Tools returns the scenario's tools of the given names, as a setTools
// step makes them for the Agent: their actions go to the Setup's target.
func (s *Setup) Tools(names []string) ([]agentcore.Tool, error) {
	return s.p.makeTools(names)
}
