package openairesponses

import "testing"

// The tests of this file replay the responses of testdata/stream and
// compare what the stream function makes of them with what pi-ai 1.6.0
// made of the same bytes (see providertest's "Reference recordings").

// TestMatchesReference replays the recorded responses, aborts and cut
// streams (see providertest's Target.Reference).
func TestMatchesReference(t *testing.T) { testTarget(t).Reference(t) }

// TestRefusalsMatchReference compares the error texts of refusal bodies
// with pi-ai 1.6.0's, as it reports them and after a retry delay too long.
func TestRefusalsMatchReference(t *testing.T) { testTarget(t).Refusals(t) }
