package openairesponses

import "testing"

// The tests of this file replay the responses of testdata/stream and
// compare what the stream function makes of them with what pi-ai 1.6.0
// made of the same bytes (see providertest's "Reference recordings").

func TestRecordedResponsesMatchReference(t *testing.T) { testTarget(t).RecordedResponses(t) }

func TestAbortMatchesReference(t *testing.T) { testTarget(t).Aborts(t) }

// TestCutStreamsMatchReference cuts the body in the middle of a chunk:
// with "Connection: close" its end is the body's, else the connection
// broke off ("terminated: "), as pi-ai reads both.
func TestCutStreamsMatchReference(t *testing.T) { testTarget(t).CutStreams(t) }

// TestRefusalsMatchReference compares the error texts of refusal bodies
// with pi-ai 1.6.0's, as it reports them and after a retry delay too long.
func TestRefusalsMatchReference(t *testing.T) { testTarget(t).Refusals(t) }
