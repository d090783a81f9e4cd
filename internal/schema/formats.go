package schema

import (
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// formatChecks are the formats whose reference checks (pi-schema's, adapted
// from TypeBox) differ from the checker's built-in ones; they replace those.
// Other formats use the checker's built-in checks.
var formatChecks = map[string]func(string) bool{
	"date":      isDate,
	"time":      isTime,
	"date-time": isDateTime,
	"email":     isEmail,
	"uuid":      isUUID,
	"ipv4":      isIPv4,
}

// referenceFormats are the format names the reference checks (pi-schema's
// formats); it treats any other format as an annotation.
var referenceFormats = []string{
	"date", "date-time", "duration", "email", "hostname", "idn-email", "idn-hostname", "ipv4", "ipv6", "iri",
	"iri-reference", "json-pointer", "json-pointer-uri-fragment", "regex", "relative-json-pointer", "time", "uri",
	"uri-reference", "uri-template", "url", "uuid",
}

// approximations stand in for reference formats the checker does not know, by
// a close check it has or a plain one.
var approximations = map[string]func(string) bool{
	"url":                       isURL,
	"idn-email":                 builtinFormat("email"),
	"idn-hostname":              builtinFormat("hostname"),
	"json-pointer-uri-fragment": isPointerFragment,
}

// referenceFormat returns the check of a format the reference checks, nil for
// one it does not.
func referenceFormat(name string) func(string) bool {
	if check, ok := formatChecks[name]; ok {
		return check
	}
	if check, ok := approximations[name]; ok {
		return check
	}
	for _, n := range referenceFormats {
		if n == name {
			return builtinFormat(name)
		}
	}
	return nil
}

// checkerFormats returns the format checks the checker compiles with: the
// reference's formats, and every other format it knows turned off. The map is
// built once and only read.
var checkerFormats = sync.OnceValue(buildCheckerFormats)

func buildCheckerFormats() map[string]func(any) bool {
	out := map[string]func(any) bool{}
	for name := range jsonschema.Formats {
		out[name] = func(any) bool { return true }
	}
	for _, name := range referenceFormats {
		if check := checkerFormat(name); check != nil {
			out[name] = stringFormat(check)
		}
	}
	return out
}

// checkerFormat returns the check the checker applies to strings of format
// name (its formats pass every other value), nil when it applies none.
func checkerFormat(name string) func(string) bool {
	if !slices.Contains(referenceFormats, name) {
		return nil
	}
	return referenceFormat(name)
}

// builtinFormat returns the checker's own check of a format as a string check.
func builtinFormat(name string) func(string) bool {
	check := jsonschema.Formats[name]
	if check == nil {
		return nil
	}
	return func(s string) bool { return check(s) }
}

// isURL approximates the WHATWG URL parser's acceptance: an absolute URL
// with a scheme.
func isURL(s string) bool {
	u, err := url.Parse(strings.TrimSpace(s))
	return err == nil && u.Scheme != ""
}

// isPointerFragment: "#" then a percent-encoded JSON Pointer.
func isPointerFragment(s string) bool {
	rest, ok := strings.CutPrefix(s, "#")
	if !ok {
		return false
	}
	p, err := url.PathUnescape(rest)
	if err != nil {
		return false
	}
	if check := builtinFormat("json-pointer"); check != nil {
		return check(p)
	}
	return true
}

// stringFormat adapts a string check to the checker, which passes every
// other type.
func stringFormat(check func(string) bool) func(any) bool {
	return func(v any) bool {
		s, ok := v.(string)
		return !ok || check(s)
	}
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, len(s) > 0
}

var monthDays = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// isDate: YYYY-MM-DD, a real calendar day.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y, ok1 := digits(s[:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 {
		return false
	}
	max := monthDays[m]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		max = 29
	}
	return d <= max
}

// isTime: HH:MM:SS[.fraction] with a required Z or ±HH:MM offset; a leap
// second only at 23:59:60 UTC.
func isTime(s string) bool {
	if len(s) < 8 || s[2] != ':' || s[5] != ':' {
		return false
	}
	hr, ok1 := digits(s[:2])
	min, ok2 := digits(s[3:5])
	sec, ok3 := digits(s[6:8])
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	rest := s[8:]
	if strings.HasPrefix(rest, ".") {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 1 {
			return false
		}
		rest = rest[i:]
	}
	sign, tzH, tzM := 1, 0, 0
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		h, okH := digits(rest[1:3])
		m, okM := digits(rest[4:])
		if !okH || !okM || h > 23 || m > 59 {
			return false
		}
		tzH, tzM = h, m
		if rest[0] == '-' {
			sign = -1
		}
	default:
		return false
	}
	if hr > 23 || min > 59 || sec > 60 {
		return false
	}
	if sec < 60 {
		return true
	}
	utc := hr*60 + min - sign*(tzH*60+tzM)
	return ((utc%1440)+1440)%1440 == 1439
}

// isDateTime: a date and a time joined by T or t.
func isDateTime(s string) bool {
	i := strings.IndexAny(s, "Tt")
	if i < 0 || strings.ContainsAny(s[i+1:], "Tt") {
		return false
	}
	return isDate(s[:i]) && isTime(s[i+1:])
}

// isUUID: 8-4-4-4-12 hexadecimal digits, any case.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
			continue
		}
		if !isHexDigit(c) {
			return false
		}
	}
	return true
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isIPv4: four decimal octets 0-255 without leading zeros.
func isIPv4(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if !isOctet(p) {
			return false
		}
	}
	return true
}

func isOctet(p string) bool {
	n, ok := digits(p)
	return ok && len(p) <= 3 && (len(p) == 1 || p[0] != '0') && n <= 255
}

const atext = "!#$%&'*+/=?^_`{|}~-"

// isEmail: a dot-atom or quoted local part, then a domain of LDH labels (each
// at most 63 characters, not starting or ending with '-') or a bracketed
// IPv4 or IPv6 literal. Letters in any case.
func isEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 {
		return false
	}
	return isLocalPart(s[:at]) && isMailDomain(s[at+1:])
}

func isLocalPart(s string) bool {
	if s[0] == '"' {
		if len(s) < 2 || s[len(s)-1] != '"' {
			return false
		}
		body := s[1 : len(s)-1]
		for i := 0; i < len(body); i++ {
			switch c := body[i]; {
			case c == '\\':
				if i+1 >= len(body) || body[i+1] < 0x20 || body[i+1] > 0x7e {
					return false
				}
				i++
			case c == '"':
				return false
			}
		}
		return true
	}
	for _, atom := range strings.Split(s, ".") {
		if atom == "" {
			return false
		}
		for i := 0; i < len(atom); i++ {
			c := atom[i]
			if !isAlnum(c) && !strings.ContainsRune(atext, rune(c)) {
				return false
			}
		}
	}
	return true
}

func isMailDomain(s string) bool {
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		inner := s[1 : len(s)-1]
		if len(inner) >= 5 && strings.EqualFold(inner[:5], "IPv6:") {
			rest := inner[5:]
			if rest == "" {
				return false
			}
			for i := 0; i < len(rest); i++ {
				if c := rest[i] | 0x20; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || rest[i] == ':') {
					return false
				}
			}
			return true
		}
		return isIPv4(inner)
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if !isAlnum(label[i]) && label[i] != '-' {
				return false
			}
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
