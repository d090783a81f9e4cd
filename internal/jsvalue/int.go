package jsvalue

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/pi-go/agentcore/internal/jsonscan"
)

// ErrNotNumber is the error [Int.UnmarshalJSON] wraps for a JSON value
// that is neither a number nor null.
var ErrNotNumber = errors.New("not a JSON number")

// Int is an integer field of JSON a JavaScript program wrote, where every
// number is a double: any JSON number is accepted. A fraction is truncated
// toward zero and a value beyond int64 saturates to math.MaxInt64 or
// math.MinInt64, so a token count of 1.5 reads as 1 and a timestamp of
// 12345678901234567890 or 1e400 as math.MaxInt64, rather than failing the
// whole message. The conversion is [jsonscan.Int64], the one the one-pass
// decoders use, so both paths read a number alike.
type Int int64

// UnmarshalJSON reads any JSON number into n; null leaves n unchanged (a
// field decoded into a fresh struct stays zero). Any other value, a string
// such as "1" included, is an error wrapping [ErrNotNumber].
func (n *Int) UnmarshalJSON(data []byte) error {
	if i, ok := jsonscan.Int64(data); ok {
		*n = Int(i)
		return nil
	}
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	return fmt.Errorf("%w: %.40s", ErrNotNumber, data)
}

// Int64Ptr returns *n as an *int64 for an optional field: nil when n is
// nil (the field was absent or null).
func Int64Ptr(n *Int) *int64 {
	if n == nil {
		return nil
	}
	v := int64(*n)
	return &v
}
