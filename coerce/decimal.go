package coerce

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Compiled on first use, as every regular expression of a package the
// command line links: start-up is most of a run on a small manifest.
var (
	jsonInteger = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`) })
	jsonNumber  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
	})
)

// MaxSafeInteger is 2^53−1, the largest integer every JSON reader holds
// exactly (RFC 7493, I-JSON, section 2.2).
const MaxSafeInteger = 1<<53 - 1

// Decimal reads s, a string sent for a number (an integer when integer is
// set), and returns the JSON number it converts to; ok is false when it
// stays a string. It is the one definition of a decimal string for
// Arguments, Middleware and mcplint proxy; the package doc says which
// strings convert and why. The number is s itself: a conversion only
// drops the quotes, so no digit changes on the way.
func Decimal(s string, integer bool) (n json.Number, ok bool) {
	if integer {
		// 17 characters hold "-" and 16 digits: past that the value is
		// past 2^53−1 anyway, and neither the pattern nor ParseInt need
		// read a long string.
		if len(s) > 17 || !jsonInteger().MatchString(s) {
			return "", false
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v > MaxSafeInteger || v < -MaxSafeInteger {
			return "", false
		}
		return json.Number(s), true
	}
	if !jsonNumber().MatchString(s) {
		return "", false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return "", false
	}
	// More digits than the double nearest s keeps would be rounded away
	// by a reader that decodes numbers into doubles (JavaScript's, and
	// Python's for a fraction): the value the server sees would not be
	// the one sent. The same holds for a number so small it reads as 0.
	if !sameDecimal(s, strconv.FormatFloat(f, 'e', -1, 64)) {
		return "", false
	}
	return json.Number(s), true
}

// sameDecimal reports whether two decimal spellings (JSON number
// grammar) have the same value, comparing their significant digits and
// the power of ten that scales them.
func sameDecimal(a, b string) bool {
	da, ea, okA := decimalParts(a)
	db, eb, okB := decimalParts(b)
	return okA && okB && da == db && ea == eb
}

// decimalParts splits a decimal into its sign and significant digits,
// without leading or trailing zeros, and the exponent e such that the
// value is digits×10^e. Zero is "0" with exponent 0 (keeping its sign).
func decimalParts(s string) (digits string, exp int, ok bool) {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return "", 0, false
		}
		exp, s = e, s[:i]
	}
	whole, frac, _ := strings.Cut(s, ".")
	exp -= len(frac)
	d := strings.TrimLeft(whole+frac, "0")
	trimmed := strings.TrimRight(d, "0")
	exp += len(d) - len(trimmed)
	if trimmed == "" {
		return sign + "0", 0, true
	}
	return sign + trimmed, exp, true
}
