package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// ErrLocked is returned when another writer holds a session file's lock.
// The error is a [*LockedError] naming the holder when the lock says who
// it is.
var ErrLocked = errors.New("session: locked by another writer")

// LockedError is the error of an open refused because a live writer
// holds the session file's lock. It matches [ErrLocked] with errors.Is.
type LockedError struct {
	// Lock is the path of the lock file, <file>.lock.
	Lock string
	// PID, Host and Since name the writer holding it, as it recorded
	// itself; they are zero when the lock records no owner (a writer
	// that has not yet written it, or a lock of another kind).
	PID   int
	Host  string
	Since time.Time
	// Detail says what else is known, such as a lock directory left by
	// another program; "" when nothing is.
	Detail string
}

// Error names the lock and its holder.
func (e *LockedError) Error() string {
	msg := fmt.Sprintf("%v: %s", ErrLocked, e.Lock)
	if e.PID != 0 {
		msg += fmt.Sprintf(" is held by process %d", e.PID)
		if e.Host != "" {
			msg += " on " + e.Host
		}
		if !e.Since.IsZero() {
			msg += " since " + e.Since.UTC().Format(time.RFC3339)
		}
	}
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg
}

// Is reports whether target is [ErrLocked].
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// lockOwner is what a writer records in the lock file it holds, for the
// error a second writer gets.
type lockOwner struct {
	PID   int    `json:"pid"`
	Host  string `json:"host,omitempty"`
	Since string `json:"since,omitempty"`
}

// maxOwnerBytes bounds what is read of a lock file for its owner.
const maxOwnerBytes = 4096

// newOwner describes the calling process.
func newOwner() []byte {
	host, _ := os.Hostname()
	b, _ := json.Marshal(lockOwner{PID: os.Getpid(), Host: host, Since: time.Now().UTC().Format(time.RFC3339)})
	return append(b, '\n')
}

// lockedError reads the owner recorded in the lock file f, if any.
func lockedError(lockPath string, f *os.File) *LockedError {
	e := &LockedError{Lock: lockPath}
	if f == nil {
		return e
	}
	data, err := io.ReadAll(io.NewSectionReader(f, 0, maxOwnerBytes))
	if err != nil {
		return e
	}
	var o lockOwner
	if json.Unmarshal(data, &o) != nil {
		return e
	}
	e.PID, e.Host = o.PID, o.Host
	if t, err := time.Parse(time.RFC3339, o.Since); err == nil {
		e.Since = t
	}
	return e
}
