package openairesponses

import "testing"

// The tests of this file replay the responses of testdata/stream and
// compare what the stream function makes of them with what pi-ai 1.6.0
// made of the same bytes (see providertest's "Reference recordings").

func TestRecordedResponsesMatchReference(t *testing.T) { testTarget(t).RecordedResponses(t) }

func TestAbortMatchesReference(t *testing.T) { testTarget(t).Aborts(t) }

// TestConnectionDropped cuts the connection in the middle of the body.
// pi-ai reports the platform's network error without ending the blocks;
// so does this package, with Go's words.
func TestConnectionDropped(t *testing.T) { testTarget(t).ConnectionDropped(t) }

// TestRefusalsMatchReference compares the error texts of refusal bodies
// with pi-ai 1.6.0's, as it reports them and after a retry delay too long.
func TestRefusalsMatchReference(t *testing.T) { testTarget(t).Refusals(t) }
