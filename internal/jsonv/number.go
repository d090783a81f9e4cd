package jsonv

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// FormatNumber returns f as JavaScript's String(f) writes it: the shortest
// digits that read back as f, in fixed notation from 1e-7 up to below 1e21 and
// exponential notation (1e+21, 1.5e-7) outside; -0 as "0"; "NaN",
// "Infinity" and "-Infinity" for the non-finite values.
func FormatNumber(f float64) string {
	var buf [32]byte
	return string(AppendNumber(buf[:0], f))
}

// AppendNumber appends FormatNumber(f).
func AppendNumber(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0:
		return append(dst, '0')
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		if math.Abs(f) < 1<<53 {
			return strconv.AppendInt(dst, int64(f), 10)
		}
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	// 'e' with the shortest precision: d.ddde±x.
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	mark := 0
	for e[mark] != 'e' {
		mark++
	}
	exp, _ := strconv.Atoi(string(e[mark+1:]))
	var digits [24]byte
	k := 0
	for _, c := range e[:mark] {
		if c != '.' {
			digits[k] = c
			k++
		}
	}
	d := digits[:k]
	n := exp + 1 // the position of the decimal point relative to the digits
	switch {
	case k <= n && n <= 21:
		dst = append(dst, d...)
		for i := k; i < n; i++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, d[:n]...)
		dst = append(dst, '.')
		dst = append(dst, d[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for i := 0; i < -n; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, d...)
	default:
		dst = append(dst, d[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}

// IsSpace reports whether r is whitespace or a line terminator to JavaScript
// (what String.prototype.trim removes).
func IsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// TrimSpace returns s without leading and trailing JavaScript whitespace, as
// String.prototype.trim.
func TrimSpace(s string) string {
	start := 0
	for start < len(s) {
		r, size := utf8.DecodeRuneInString(s[start:])
		if !IsSpace(r) {
			break
		}
		start += size
	}
	end := len(s)
	for end > start {
		r, size := utf8.DecodeLastRuneInString(s[start:end])
		if !IsSpace(r) {
			break
		}
		end -= size
	}
	return s[start:end]
}

// StringToNumber converts s as JavaScript's Number(s) (and unary +) does:
// surrounding whitespace is ignored, "" is 0, decimal literals with an
// optional sign, "Infinity", and unsigned 0x/0o/0b integer literals are
// numbers, anything else is NaN.
func StringToNumber(s string) float64 {
	s = TrimSpace(s)
	if s == "" {
		return 0
	}
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			return radix(s[2:], 16)
		case 'o', 'O':
			return radix(s[2:], 8)
		case 'b', 'B':
			return radix(s[2:], 2)
		}
	}
	body := s
	neg := false
	if body[0] == '+' || body[0] == '-' {
		neg = body[0] == '-'
		body = body[1:]
	}
	if body == "Infinity" {
		if neg {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	if !decimalLiteral(body) {
		return math.NaN()
	}
	f, err := strconv.ParseFloat(body, 64)
	if err != nil && !isRange(err) {
		return math.NaN()
	}
	if neg {
		f = -f
	}
	return f
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// decimalLiteral reports whether s is a StrUnsignedDecimalLiteral without
// "Infinity": digits with an optional fraction (at least one digit in all)
// and an optional exponent.
func decimalLiteral(s string) bool {
	i := 0
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// radix converts the digits of a 0x, 0o or 0b literal, rounded to the nearest
// double; NaN when a digit is invalid.
func radix(digits string, base int) float64 {
	if strings.ContainsAny(digits, "+-_") {
		return math.NaN()
	}
	var n big.Int
	if _, ok := n.SetString(digits, base); !ok {
		return math.NaN()
	}
	f, _ := new(big.Float).SetInt(&n).Float64()
	return f
}
