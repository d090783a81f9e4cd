package bedrock

import (
	"testing"
)

// The tests of this file replay the responses of testdata/stream and
// compare what the stream function makes of them with what pi-ai 1.6.0
// made of the same bytes (see providertest's "Reference recordings").

func TestRecordedResponsesMatchReference(t *testing.T) { testTarget(t).RecordedResponses(t) }

func TestAbortMatchesReference(t *testing.T) { testTarget(t).Aborts(t) }

// TestCutStreams cuts the body in the middle of a chunk, on a connection
// kept alive or closed: the text so far is kept, no block is ended, and
// the error is Node's "aborted", as pi-ai reports every cut.
func TestCutStreams(t *testing.T) { testTarget(t).CutStreams(t) }
