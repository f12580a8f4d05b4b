package soltext

import (
	"fmt"
	"sort"
)

// Located is a top-level definition and the file that holds it.
type Located struct {
	File string
	Definition
}

// Chain is the target's linearised inheritance chain read by the lexer
// alone, across every file of a source (for text that is not compiled:
// sizing a crawled candidate, merging an imported sample): the target
// first, then its bases most derived first, as solc's
// linearizedBaseContracts lists them (C3 over the `is` lists), interfaces
// included. file names the target's file ("" = the first file, in path
// order, that defines it). A base name resolves to the definition in the
// same file, else in the first file in path order that defines it; a base
// no file defines is left out (it cannot be counted or rewritten), and a
// hierarchy C3 cannot order falls back to depth-first order.
func Chain(files map[string]string, file, target string) ([]Located, error) {
	idx := indexDefinitions(files)
	start, ok := idx.resolve(target, file)
	if !ok || file != "" && start.File != file {
		return nil, fmt.Errorf("soltext: no file defines contract %s", target)
	}
	lin := map[locKey][]Located{}
	return idx.linearize(start, lin, map[locKey]bool{}), nil
}

type locKey struct{ file, name string }

func (l Located) key() locKey { return locKey{l.File, l.Name} }

type definitionIndex struct {
	paths  []string                      // file names in order
	byFile map[string]map[string]Located // file -> name -> its first definition there
}

func indexDefinitions(files map[string]string) definitionIndex {
	idx := definitionIndex{byFile: map[string]map[string]Located{}}
	for path, text := range files {
		idx.paths = append(idx.paths, path)
		defs := map[string]Located{}
		for _, d := range Definitions(text) {
			if _, dup := defs[d.Name]; !dup {
				defs[d.Name] = Located{File: path, Definition: d}
			}
		}
		idx.byFile[path] = defs
	}
	sort.Strings(idx.paths)
	return idx
}

// resolve finds name as seen from file: its own definition first.
func (idx definitionIndex) resolve(name, file string) (Located, bool) {
	if d, ok := idx.byFile[file][name]; ok {
		return d, true
	}
	for _, p := range idx.paths {
		if d, ok := idx.byFile[p][name]; ok {
			return d, true
		}
	}
	return Located{}, false
}

// linearize is C3: L(C) = C + merge(L(Bn), ..., L(B1), [Bn, ..., B1]) for
// `C is B1, ..., Bn` (the last base named is the most derived).
func (idx definitionIndex) linearize(c Located, memo map[locKey][]Located, visiting map[locKey]bool) []Located {
	if l, ok := memo[c.key()]; ok {
		return l
	}
	if visiting[c.key()] {
		return []Located{c} // a cycle (the source does not compile): stop here
	}
	visiting[c.key()] = true
	var bases []Located
	for _, name := range c.Bases {
		if b, ok := idx.resolve(name, c.File); ok {
			bases = append(bases, b)
		}
	}
	var lists [][]Located
	for i := len(bases) - 1; i >= 0; i-- {
		lists = append(lists, idx.linearize(bases[i], memo, visiting))
	}
	direct := make([]Located, 0, len(bases))
	for i := len(bases) - 1; i >= 0; i-- {
		direct = append(direct, bases[i])
	}
	lists = append(lists, direct)
	merged, ok := c3merge(lists)
	if !ok {
		merged = depthFirst(lists)
	}
	out := append([]Located{c}, merged...)
	memo[c.key()] = out
	delete(visiting, c.key())
	return out
}

// c3merge takes, again and again, the first head of a list that is in no
// other list's tail.
func c3merge(lists [][]Located) ([]Located, bool) {
	var out []Located
	for {
		lists = nonEmpty(lists)
		if len(lists) == 0 {
			return out, true
		}
		head, found := Located{}, false
		for _, l := range lists {
			if !inTail(lists, l[0].key()) {
				head, found = l[0], true
				break
			}
		}
		if !found {
			return nil, false
		}
		out = append(out, head)
		for i, l := range lists {
			if l[0].key() == head.key() {
				lists[i] = l[1:]
			}
		}
	}
}

func nonEmpty(lists [][]Located) [][]Located {
	out := lists[:0]
	for _, l := range lists {
		if len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

func inTail(lists [][]Located, k locKey) bool {
	for _, l := range lists {
		for _, x := range l[1:] {
			if x.key() == k {
				return true
			}
		}
	}
	return false
}

// depthFirst is every definition of the lists once, in order.
func depthFirst(lists [][]Located) []Located {
	seen := map[locKey]bool{}
	var out []Located
	for _, l := range lists {
		for _, x := range l {
			if !seen[x.key()] {
				seen[x.key()] = true
				out = append(out, x)
			}
		}
	}
	return out
}

// ChainFiles lists the files of a chain's contracts (as Chain lists them,
// most derived first) in generation order: each file where its first
// contract comes when the chain is read most base first. Interfaces are
// left out: they hold nothing to regenerate.
func ChainFiles(chain []Located) []string {
	var files []string
	for _, l := range chain {
		if l.Kind == "contract" {
			files = append(files, l.File)
		}
	}
	return BaseFirst(files)
}

// BaseFirst orders the files of a chain listed most derived first (one
// entry per contract) by their first appearance read most base first.
func BaseFirst(files []string) []string {
	var out []string
	seen := map[string]bool{}
	for i := len(files) - 1; i >= 0; i-- {
		if !seen[files[i]] {
			seen[files[i]] = true
			out = append(out, files[i])
		}
	}
	return out
}
