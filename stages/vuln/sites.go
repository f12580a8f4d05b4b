package vuln

import (
	"cmp"
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/solbehave/solbehave/internal/bytecode"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/soltext"
	engine "github.com/solbehave/solbehave/internal/vuln"
	"github.com/solbehave/solbehave/schemas"
)

// siteMapper maps a run's sites to source lines: the target's runtime code
// through solc's runtime source map, and called functions to the lines of
// their definitions.
type siteMapper struct {
	lines     map[uint64][]int  // pc → source lines
	functions map[string][2]int // function name → first and last line
}

// maxSiteSpan: a source-map range over more lines than this (a whole
// function, a contract) counts its first line only.
const maxSiteSpan = 10

func newSiteMapper(out *solc.Output, c *solc.Contract, file, source string, code []byte) *siteMapper {
	m := &siteMapper{lines: map[uint64][]int{}, functions: map[string][2]int{}}
	starts := lineStarts(source)
	src := out.Sources[file]
	fileIndex := 0
	if src != nil {
		fileIndex = src.ID
	}
	entries := parseSourceMap(c.RuntimeSourceMap)
	for i, in := range bytecode.DisassembleRaw(code) {
		if i >= len(entries) {
			break
		}
		e := entries[i]
		if e.file != fileIndex || e.start < 0 || e.start >= len(source) {
			continue
		}
		first, last := lineOf(starts, e.start), lineOf(starts, max(e.start, e.start+e.length-1))
		if last-first > maxSiteSpan {
			last = first
		}
		for l := first; l <= last; l++ {
			m.lines[in.PC] = append(m.lines[in.PC], l)
		}
	}
	if src != nil {
		if root, err := solast.Parse(src.AST); err == nil {
			for _, k := range solast.Contracts(root) {
				for _, fn := range solast.Functions(k.Node) {
					if _, seen := m.functions[fn.Name]; !seen && fn.Name != "" && fn.Src.Start >= 0 {
						m.functions[fn.Name] = [2]int{lineOf(starts, fn.Src.Start), lineOf(starts, max(fn.Src.Start, fn.Src.End()-1))}
					}
				}
			}
		}
	}
	return m
}

// rows turns a report's sites into vuln_sites rows, sorted.
func (m *siteMapper) rows(run schemas.VulnRun, rep *engine.Report) []schemas.VulnSite {
	rows := make([]schemas.VulnSite, 0, len(rep.Sites))
	for _, st := range rep.Sites {
		set := map[int]bool{}
		for _, pc := range st.PCs {
			for _, l := range m.lines[pc] {
				set[l] = true
			}
		}
		lines := make([]int, 0, len(set))
		for l := range set {
			lines = append(lines, l)
		}
		sort.Ints(lines)
		ls, _ := json.Marshal(lines)
		pcs, _ := json.Marshal(st.PCs)
		row := schemas.VulnSite{ContractID: run.ContractID, Ablation: run.Ablation, Profile: run.Profile, Target: run.Target,
			Class: string(st.Class), Function: st.Function, PCs: string(pcs), Lines: string(ls)}
		if fl, ok := m.functions[strings.SplitN(st.Function, "(", 2)[0]]; ok && st.Function != "fallback" {
			row.FunctionFirst, row.FunctionLast = int64(fl[0]), int64(fl[1])
		}
		rows = append(rows, row)
	}
	slices.SortFunc(rows, func(a, b schemas.VulnSite) int {
		return cmp.Or(cmp.Compare(a.Class, b.Class), cmp.Compare(a.Function, b.Function), cmp.Compare(a.PCs, b.PCs))
	})
	return rows
}

// srcEntry is one instruction's entry of a solc source map.
type srcEntry struct{ start, length, file int }

// parseSourceMap decodes solc's compressed source map ("s:l:f:j:m;…",
// empty fields repeat the previous entry's).
func parseSourceMap(sm string) []srcEntry {
	if sm == "" {
		return nil
	}
	var out []srcEntry
	cur := srcEntry{file: -1}
	for _, item := range strings.Split(sm, ";") {
		fields := strings.Split(item, ":")
		for k, dst := range []*int{&cur.start, &cur.length, &cur.file} {
			if k < len(fields) && fields[k] != "" {
				if n, err := strconv.Atoi(fields[k]); err == nil {
					*dst = n
				}
			}
		}
		out = append(out, cur)
	}
	return out
}

// lineStarts are the byte offsets at which the source's lines start.
func lineStarts(source string) []int {
	starts := []int{0}
	for i := 0; i < len(source); i++ {
		if source[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf is the 1-based line of a byte offset.
func lineOf(starts []int, off int) int { return sort.SearchInts(starts, off+1) }

var (
	stipendOnly = regexp.MustCompile(`\.(send|transfer)\s*\(`)
	lowLevel    = regexp.MustCompile(`\.call\b`)
	timeRead    = regexp.MustCompile(`block\.timestamp|\bnow\b`)
	branches    = regexp.MustCompile(`\b(if|require|assert|while)\b|\?`)
	readOnlyFn  = regexp.MustCompile(`\bfunction\b[^{]*\b(view|pure|constant)\b`)
	// paysFromMapping finds the mapping a snippet's low-level call pays the
	// sender from: call.value(m[msg.sender]), or an amount checked against
	// m[msg.sender].
	paysFromMapping = regexp.MustCompile(`\.call\.value\(\s*(\w+)\s*\[\s*msg\.sender\s*\]\s*\)|require\(\s*(\w+)\s*\[\s*msg\.sender\s*\]\s*>=`)
)

// bugRows are the file's labelled entries whose category maps to a class,
// one row each, with whether the snippet can be exploited dynamically.
func (f *smartbugsFile) bugRows() []schemas.VulnBug {
	lines := strings.Split(f.source, "\n")
	code := soltext.BlankComments(f.source) // what exploitable searches for credits, once per file
	var rows []schemas.VulnBug
	for i, v := range f.entry.Vulnerabilities {
		class, ok := mapCategory(v.Category, v.Lines, lines)
		if !ok {
			continue
		}
		var text []string
		for _, n := range v.Lines {
			if n >= 1 && n <= len(lines) {
				text = append(text, soltext.BlankComments(lines[n-1]))
			}
		}
		ls, _ := json.Marshal(v.Lines)
		row := schemas.VulnBug{ContractID: f.id, File: f.entry.Path, Bug: int64(i), Class: string(class), DASP: v.Category, Lines: string(ls)}
		row.Exploitable, row.Reason = exploitable(class, strings.Join(text, "\n"), code)
		rows = append(rows, row)
	}
	return rows
}

// exploitable reads a snippet's text within its file's source: a
// reentrancy that pays only through send or transfer (the 2,300-gas stipend
// stops re-entry) or pays the sender's entry of a mapping no code of the
// file credits (always 0 wei, and SAEFUZZ's oracle asks for a positive
// value), a block-state read never branched on, or one in a view or pure
// function, cannot be exploited dynamically.
func exploitable(class engine.Class, text, source string) (bool, string) {
	switch class {
	case engine.Reentrancy:
		if stipendOnly.MatchString(text) && !lowLevel.MatchString(text) {
			return false, "pays with send or transfer only: the 2,300-gas stipend stops re-entry"
		}
		if m := paysFromMapping.FindStringSubmatch(text); m != nil && lowLevel.MatchString(text) && !credited(cmp.Or(m[1], m[2]), source) {
			return false, "pays from " + cmp.Or(m[1], m[2]) + ", which no code credits: always 0 wei, and SAEFUZZ's reentrancy oracle asks for a positive value"
		}
	case engine.BlockState:
		if readOnlyFn.MatchString(text) {
			return false, "in a view or pure function: no state or Ether can change"
		}
		if timeRead.MatchString(text) && !branches.MatchString(text) {
			return false, "the time is stored or returned, never branched on"
		}
	}
	return true, ""
}

// credited reports whether source writes a value other than 0 into an
// entry of mapping name (`name[k] += v`, or `name[k] = v` with v not 0).
func credited(name, source string) bool {
	writes := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\s*\[[^\]]*\]\s*(\+=|=)([^;]*);`)
	for _, w := range writes.FindAllStringSubmatch(source, -1) {
		rhs := strings.TrimSpace(w[2])
		if w[1] == "+=" || !strings.HasPrefix(rhs, "=") && rhs != "0" {
			return true
		}
	}
	return false
}
