package vuln

import "strings"

// StripComments blanks every // and /* */ comment of Solidity source outside
// string literals, keeping line breaks (so line numbers and byte offsets of
// the remaining code are unchanged: each comment byte becomes a space, each
// newline inside a block comment stays). The SmartBugs files carry their
// labels in comments; the detector compiles the stripped text.
func StripComments(src string) string {
	b := []byte(src)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '"' || b[i] == '\'':
			i = skipString(b, i) - 1
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			end := strings.Index(string(b[i+2:]), "*/")
			stop := len(b)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for j := i; j < stop; j++ {
				if b[j] != '\n' && b[j] != '\r' {
					b[j] = ' '
				}
			}
			i = stop - 1
		}
	}
	return string(b)
}

// skipString returns the index just past the string literal opening at i
// (an unterminated literal ends at the line break).
func skipString(b []byte, i int) int {
	quote := b[i]
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case quote, '\n':
			return j + 1
		}
	}
	return len(b)
}
