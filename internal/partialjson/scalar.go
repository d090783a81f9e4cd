package partialjson

import (
	"math"
	"strconv"
)

var literals = [...]string{"true", "false", "null"}

// scalarValue returns the encoded value of a complete number or literal
// token, or nil for anything else (which is dropped).
func scalarValue(token []byte) []byte {
	for _, lit := range literals {
		if string(token) == lit {
			return []byte(lit)
		}
	}
	if numberLen(token) == len(token) {
		return encodeNumber(token)
	}
	return nil
}

// pendingScalar returns the encoded value an unterminated number or literal
// token shows, or nil.
func pendingScalar(token []byte) []byte {
	for _, lit := range literals {
		if len(token) <= len(lit) && lit[:len(token)] == string(token) {
			return []byte(lit)
		}
	}
	n := numberLen(token)
	if n == len(token) {
		return encodeNumber(token)
	}
	// A mantissa followed by an exponent marker without digits: 1e, 2.5E+.
	if n > 0 && n < len(token) && (token[n] == 'e' || token[n] == 'E') {
		rest := token[n+1:]
		if len(rest) == 0 || len(rest) == 1 && (rest[0] == '+' || rest[0] == '-') {
			return encodeNumber(token[:n])
		}
	}
	return nil
}

// encodeNumber returns a valid number token as JSON: the token itself, or
// null when it is too large for a float64 (JSON.stringify writes Infinity
// as null).
func encodeNumber(token []byte) []byte {
	f, err := strconv.ParseFloat(string(token), 64)
	if err != nil && math.IsInf(f, 0) {
		return []byte("null")
	}
	return append([]byte(nil), token...)
}

// numberLen returns the length of the longest prefix of b that is a JSON
// number, -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, or 0 when none is.
func numberLen(b []byte) int {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return 0
	}
	if i+1 < len(b) && b[i] == '.' && isDigit(b[i+1]) {
		i = digits(b, i+1)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		j := i + 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if j < len(b) && isDigit(b[j]) {
			i = digits(b, j)
		}
	}
	return i
}

func digits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
