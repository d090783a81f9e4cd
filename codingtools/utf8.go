package codingtools

import "unicode/utf8"

// replacementChar is U+FFFD in UTF-8.
const replacementChar = "\uFFFD"

// decodeUTF8 appends src to dst as valid UTF-8 the way a WHATWG decoder
// (Node's TextDecoder and Buffer.toString) reads it: each maximal invalid
// subsequence becomes one U+FFFD. Unless final, an incomplete sequence at
// the end of src is not decoded but returned as rest, to be prefixed to
// the next chunk.
func decodeUTF8(dst, src []byte, final bool) (out, rest []byte) {
	if (final || len(src) == 0 || src[len(src)-1] < 0x80) && utf8.Valid(src) {
		return append(dst, src...), nil
	}
	i := 0
	for i < len(src) {
		b := src[i]
		if b < 0x80 {
			start := i
			for i < len(src) && src[i] < 0x80 {
				i++
			}
			dst = append(dst, src[start:i]...)
			continue
		}
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case b >= 0xC2 && b <= 0xDF:
			need = 1
		case b >= 0xE0 && b <= 0xEF:
			need = 2
			if b == 0xE0 {
				lo = 0xA0
			} else if b == 0xED {
				hi = 0x9F
			}
		case b >= 0xF0 && b <= 0xF4:
			need = 3
			if b == 0xF0 {
				lo = 0x90
			} else if b == 0xF4 {
				hi = 0x8F
			}
		default:
			dst = append(dst, replacementChar...)
			i++
			continue
		}
		j, ok := i+1, true
		for k := 0; k < need; k++ {
			if j >= len(src) {
				if !final {
					return dst, src[i:]
				}
				ok = false
				break
			}
			if c := src[j]; c < lo || c > hi {
				ok = false
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		if !ok {
			dst = append(dst, replacementChar...)
			i = j
			continue
		}
		dst = append(dst, src[i:j]...)
		i = j
	}
	return dst, nil
}

// decodeString is decodeUTF8 of a whole buffer.
func decodeString(src []byte) string {
	out, _ := decodeUTF8(make([]byte, 0, len(src)), src, true)
	return string(out)
}
