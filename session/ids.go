package session

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"regexp"
	"time"

	"github.com/pi-go/agentcore/internal/limit"
)

// newEntryID returns 8 random hex digits not in taken, as pi's entry IDs
// (the first 8 digits of a random UUID), or a whole UUID after 100
// collisions.
func newEntryID[V any](taken map[string]V) string {
	return newEntryIDWith(nil, taken)
}

// newEntryIDWith is newEntryID drawing its candidates from draw (nil for
// random ones): [Options.NewEntryID]. A "" drawn is drawn again: it would
// make the entry one without an ID, and its children roots.
func newEntryIDWith[V any](draw func() string, taken map[string]V) string {
	for range 100 {
		var id string
		if draw != nil {
			id = draw()
		} else {
			var b [4]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		if _, ok := taken[id]; !ok && id != "" {
			return id
		}
	}
	return uuidV4()
}

func uuidV4() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

// newSessionID returns a UUIDv7 for now, as pi names its sessions.
func newSessionID(now time.Time) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(now.UnixMilli()))
	copy(b[:6], ms[2:])
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

func formatUUID(b [16]byte) string {
	h := hex.EncodeToString(b[:])
	return fmt.Sprintf("%s-%s-%s-%s-%s", h[:8], h[8:12], h[12:16], h[16:20], h[20:])
}

var validID = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`)

// checkSessionID refuses an ID pi would refuse: it becomes part of a file
// name.
func checkSessionID(id string) error {
	if !validID.MatchString(id) {
		return fmt.Errorf("%w: %s: letters, digits, '-', '_' and '.', starting and ending with a letter or digit", ErrBadID, limit.Quote(id))
	}
	return nil
}

// isoTime writes t as JavaScript's Date.toISOString does.
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
