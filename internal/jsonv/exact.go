package jsonv

import "math"

// This file recognizes input text that is already spelled exactly as
// AppendJSON writes it, which ParseExact reports.

// exactNumber reports whether text, a JSON number literal whose value is f,
// is how AppendJSON writes f.
func exactNumber(text string, f float64) bool {
	// The common case without formatting: a short integer, which AppendJSON
	// writes in decimal as it is (15 digits are below 2^53).
	digits := text
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) <= 15 && (digits[0] != '0' || text == "0") {
		plain := true
		for i := 0; i < len(digits); i++ {
			if digits[i] < '0' || digits[i] > '9' {
				plain = false
				break
			}
		}
		if plain {
			return true
		}
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return false // written as null
	}
	var buf [32]byte
	return string(AppendNumber(buf[:0], f)) == text
}

// exactEscape reports whether the \u escape whose four hex digits are hex,
// of the code unit r that does not pair with a neighbor, is how AppendQuote
// writes r: only control characters without a short escape and lone
// surrogates are written so, with lowercase digits.
func exactEscape(hex string, r rune) bool {
	switch {
	case r < 0x20:
		if escapes[r] != 0 {
			return false // written as \n and the like
		}
	case r >= 0xd800 && r < 0xe000:
	default:
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; c >= 'A' && c <= 'F' {
			return false
		}
	}
	return true
}

// ordered reports whether unique members are in JavaScript key order:
// array-index keys first, ascending, then the others.
func ordered(members []Member) bool {
	last := int64(-1)
	others := false
	for _, m := range members {
		i, ok := ArrayIndex(m.Key)
		if !ok {
			others = true
			continue
		}
		if others || int64(i) <= last {
			return false
		}
		last = int64(i)
	}
	return true
}
