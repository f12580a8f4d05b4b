package views

import (
	"math"
	"strconv"
	"strings"
)

// IsShare tells a column holding a 0–1 share by its name: the views name
// such columns *_rate (with their bootstrap bounds, *_rate_ci_low and
// *_rate_ci_high), or precision, recall, f1 and accuracy (with their Wilson
// bounds, *_lo and *_hi).
func IsShare(column string) bool {
	rate := strings.TrimSuffix(strings.TrimSuffix(column, "_ci_low"), "_ci_high")
	if strings.HasSuffix(rate, "_rate") {
		return true
	}
	base := strings.TrimSuffix(strings.TrimSuffix(column, "_lo"), "_hi")
	return base == "precision" || base == "recall" || base == "f1" || base == "accuracy"
}

// Readable renders a float for a person (the table format, the report): a
// share column as a percentage with one decimal, more only where one would
// round a value that is not 0 or 1 to 0% or 100%; any other number to four
// significant digits, keeping every digit before the point. CSV, NDJSON,
// Parquet and Arrow keep the full value.
func Readable(column string, x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	if IsShare(column) {
		return percent(x)
	}
	return significant(x, 4)
}

func percent(x float64) string {
	p := x * 100
	s := strconv.FormatFloat(p, 'f', 1, 64)
	for d := 2; d <= 4 && x != 0 && x != 1 && (zeroText(s) || s == "100.0" || strings.HasPrefix(s, "100.0")); d++ {
		s = strconv.FormatFloat(p, 'f', d, 64)
	}
	return s + "%"
}

// zeroText: "0.0", "-0.00", ...
func zeroText(s string) bool { return strings.Trim(s, "-0.") == "" }

// significant rounds x to n significant digits, never dropping an integer
// digit, without trailing zeros after the point.
func significant(x float64, n int) string {
	if x == 0 {
		return "0"
	}
	intDigits := int(math.Floor(math.Log10(math.Abs(x)))) + 1
	if intDigits < -3 { // below 0.0001: an exponent reads better than zeros
		return strconv.FormatFloat(x, 'g', n, 64)
	}
	s := strconv.FormatFloat(x, 'f', max(0, n-intDigits), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
