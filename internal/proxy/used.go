package proxy

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	esapi "github.com/nanmu42/etherscan-api"

	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/soltext"
)

// DetectContract is Detect over the files the contract uses (UsedSource):
// a multi-file source often carries files its contract never reaches (a
// package's proxy next to the token that imports one helper from it), and
// their text says nothing of the contract.
func DetectContract(src *esapi.ContractSource, code []byte) Verdict {
	text := src.SourceCode
	if files, err := etherscan.ParseSource(src); err == nil {
		text = UsedSource(files.Files, src.ContractName)
	}
	return Detect(src.Proxy, text, code)
}

// UsedSource is the text of the files of target's inheritance chain and,
// transitively, of every top-level definition their definitions name (a
// library called, a contract created or cast to). A target no file
// defines gives every file: without its chain nothing may be left out.
func UsedSource(files map[string]string, target string) string {
	chain, err := soltext.Chain(files, "", target)
	if err != nil {
		return joinFiles(files, slices.Sorted(maps.Keys(files)))
	}
	return joinFiles(files, reachedFiles(files, chain))
}

var identifier = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*`)

// reachedFiles walks from the chain's definitions to the definitions
// their code names, and lists the files that hold one.
func reachedFiles(files map[string]string, chain []soltext.Located) []string {
	byName := definitionsByName(files)
	seen := map[string]bool{}
	queue := append([]soltext.Located(nil), chain...)
	reached := map[string]bool{}
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		key := l.File + "\x00" + l.Name
		if seen[key] {
			continue
		}
		seen[key], reached[l.File] = true, true
		code := soltext.BlankComments(files[l.File][l.Start:l.End])
		for _, name := range identifier.FindAllString(code, -1) {
			queue = append(queue, byName[name]...)
		}
	}
	return slices.Sorted(maps.Keys(reached))
}

func definitionsByName(files map[string]string) map[string][]soltext.Located {
	out := map[string][]soltext.Located{}
	for path, text := range files {
		for _, d := range soltext.Definitions(text) {
			out[d.Name] = append(out[d.Name], soltext.Located{File: path, Definition: d})
		}
	}
	return out
}

func joinFiles(files map[string]string, paths []string) string {
	var b strings.Builder
	for _, p := range paths {
		b.WriteString(files[p])
		b.WriteString("\n")
	}
	return b.String()
}
