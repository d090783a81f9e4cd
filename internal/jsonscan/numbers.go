package jsonscan

import (
	"bytes"
	"math"
	"strconv"
)

// number reads a number and returns its bytes and whether it is an
// integer literal (no fraction, no exponent).
func (s *Scanner) number() ([]byte, bool) {
	d := s.data
	start, i := s.pos, s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		for i++; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
		}
	default:
		s.bad = true
		return nil, false
	}
	integer := true
	if i < len(d) && d[i] == '.' {
		integer = false
		i++
		j := i
		for ; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
		}
		if i == j {
			s.bad = true
			return nil, false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		integer = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := i
		for ; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
		}
		if i == j {
			s.bad = true
			return nil, false
		}
	}
	s.pos = i
	return d[start:i], integer
}

// Float reads a number as a float64; one out of its range fails s, as
// encoding/json refuses it.
func (s *Scanner) Float() float64 {
	if c := s.Peek(); c != '-' && (c < '0' || c > '9') {
		s.bad = true
		return 0
	}
	lit, _ := s.number()
	if s.bad {
		return 0
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		s.bad = true
		return 0
	}
	return f
}

// Int reads a number as [Int64] does.
func (s *Scanner) Int() int64 {
	if c := s.Peek(); c != '-' && (c < '0' || c > '9') {
		s.bad = true
		return 0
	}
	lit, integer := s.number()
	if s.bad {
		return 0
	}
	if integer && len(lit) <= 18 { // the common case, kept inline
		return smallInt(lit)
	}
	return toInt(lit, integer)
}

// Int64 converts the JSON number lit to an int64 as a JavaScript number
// fits one: a fraction is truncated toward zero and a value beyond the
// int64 range is saturated to math.MaxInt64 or math.MinInt64 (so 1.5 is
// 1, 12345678901234567890 and 1e21 are math.MaxInt64, -0 is 0). Space
// around lit is ignored. It reports false for lit that is not a JSON
// number (a string such as "1", null, NaN). It is the one conversion
// behind [Scanner.Int] and jsvalue.Int.
func Int64(lit []byte) (int64, bool) {
	lit = bytes.Trim(lit, " \t\r\n")
	var s Scanner
	s.Reset(lit)
	if c := s.Peek(); c != '-' && (c < '0' || c > '9') {
		return 0, false
	}
	lit, integer := s.number()
	if s.bad || !s.End() {
		return 0, false
	}
	return toInt(lit, integer), true
}

// toInt converts lit, a valid JSON number, as [Int64] does; integer
// reports that lit has no fraction and no exponent.
func toInt(lit []byte, integer bool) int64 {
	if integer && len(lit) <= 18 {
		return smallInt(lit)
	}
	if integer {
		if n, err := strconv.ParseInt(string(lit), 10, 64); err == nil {
			return n
		}
	}
	f, _ := strconv.ParseFloat(string(lit), 64) // ±Inf out of range
	switch {
	case f >= 0x1p63:
		return math.MaxInt64
	case f <= -0x1p63:
		return math.MinInt64
	}
	return int64(f)
}

// smallInt converts lit, a JSON integer literal of at most 18 bytes, which
// fits an int64 whatever its digits.
func smallInt(lit []byte) int64 {
	var n int64
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	for _, c := range lit {
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n
}
