package bedrock

import (
	"testing"
)

// The tests of this file replay the responses of testdata/stream and
// compare what the stream function makes of them with what pi-ai 1.6.0
// made of the same bytes (see providertest's "Reference recordings").

// TestMatchesReference replays the recorded responses, aborts and cut
// streams (see providertest's Target.Reference). A body cut in a chunk,
// on a connection kept alive or closed, keeps the text so far, ends no
// block and fails with Node's "aborted", as pi-ai reports every cut.
func TestMatchesReference(t *testing.T) { testTarget(t).Reference(t) }
