package regen

import (
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/solbehave/solbehave/internal/soltext"
)

// Definition names a top-level contract, library or interface by its file
// and name.
type Definition struct{ File, Name string }

// ChangedDefinition names the first definition of the original that a
// sample changed although its skeleton did not ask to regenerate it (an
// interface, a library, a base outside the regenerated ones, any
// definition of a file outside the chain), or dropped, as "library
// SafeMath in lib/SafeMath.sol"; "" when it kept them all. Comments and
// layout do not count as changes: the skeleton strips the one and a
// model's reply may redo the other. A sample may add definitions (a helper
// its bodies call): the ABI check sees what they change.
func ChangedDefinition(original, sample map[string]string, regenerated map[Definition]bool) string {
	for _, file := range slices.Sorted(maps.Keys(original)) {
		kept := definitionsOf(sample[file])
		for _, d := range soltext.Definitions(original[file]) {
			if regenerated[Definition{file, d.Name}] {
				continue
			}
			if got, ok := kept[d.Name]; !ok || got != normalized(original[file][d.Start:d.End]) {
				return d.Kind + " " + d.Name + " in " + file
			}
		}
	}
	return ""
}

// definitionsOf maps each name a file defines (first definition) to its
// normalized text.
func definitionsOf(src string) map[string]string {
	out := map[string]string{}
	for _, d := range soltext.Definitions(src) {
		if _, dup := out[d.Name]; !dup {
			out[d.Name] = normalized(src[d.Start:d.End])
		}
	}
	return out
}

// normalized is a definition's code without comments or white space.
func normalized(src string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, soltext.StripComments(src))
}
