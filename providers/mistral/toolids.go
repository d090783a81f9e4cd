package mistral

import (
	"strconv"
	"strings"

	"github.com/pi-go/agentcore/internal/transform"
)

// toolCallIDLength is the length of a tool-call ID Mistral accepts: nine
// letters and digits.
const toolCallIDLength = 9

// toolCallIDs maps the tool-call IDs of other models onto IDs Mistral
// accepts, as pi-ai does within one request: an ID that is nine letters
// and digits once its other characters are removed keeps those; another
// gets the first nine letters and digits of a hash of them, rehashed with
// an attempt counter until no other ID of the request has it.
type toolCallIDs struct {
	ids    map[string]string // ID → Mistral ID
	owners map[string]string // Mistral ID → ID
}

func newToolCallIDs() *toolCallIDs {
	return &toolCallIDs{ids: map[string]string{}, owners: map[string]string{}}
}

// normalize returns id's Mistral ID.
func (t *toolCallIDs) normalize(id string) string {
	if m, ok := t.ids[id]; ok {
		return m
	}
	for attempt := 0; ; attempt++ {
		m := deriveToolCallID(id, attempt)
		if owner, ok := t.owners[m]; !ok || owner == "" || owner == id {
			t.ids[id], t.owners[m] = m, id
			return m
		}
	}
}

// deriveToolCallID is the candidate Mistral ID of id at an attempt.
func deriveToolCallID(id string, attempt int) string {
	alnum := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, id)
	if attempt == 0 && len(alnum) == toolCallIDLength {
		return alnum
	}
	seed := alnum
	if seed == "" {
		seed = id
	}
	if attempt > 0 {
		seed += ":" + strconv.Itoa(attempt)
	}
	h := transform.ShortHash(seed) // base-36 digits only
	return h[:min(len(h), toolCallIDLength)]
}
