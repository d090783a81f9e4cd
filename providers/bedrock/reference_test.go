package bedrock

import (
	"testing"
)

// The tests of this file replay the responses of testdata/stream and
// compare what the stream function makes of them with what pi-ai 1.6.0
// made of the same bytes (see providertest's "Reference recordings").

func TestRecordedResponsesMatchReference(t *testing.T) { testTarget(t).RecordedResponses(t) }

func TestAbortMatchesReference(t *testing.T) { testTarget(t).Aborts(t) }

// TestConnectionDropped cuts the connection in the middle of the body:
// the text so far is kept and the error names the network failure.
func TestConnectionDropped(t *testing.T) { testTarget(t).ConnectionDropped(t) }
