package regen

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/solbehave/solbehave/internal/mutate"
	"github.com/solbehave/solbehave/internal/skeleton"
)

// InterfaceVariant is the mutant generator's variant (`mutant:interface`)
// that also renames one public function of the contract per sample: the
// reply of a model that "repairs" a sample by renaming or dropping the
// function it could not get right. The compile stage refuses such samples
// (changed_interface), so Table II shows what the check costs a model that
// does this.
const InterfaceVariant = "interface"

// RenameFunction is the operator of the interface variant's renaming.
const RenameFunction = "rename_function"

// CompileErrorVariant is the mutant generator's variant
// (`mutant:compile-error`) whose every sample also declares, at the end of
// one function body, a local that its initial value cannot fit: a sample
// that does not compile, as half of the paper's raw LLM samples do (Table
// I). solc reports it as a TypeError, so it runs its whole analysis and
// stops before code generation, where an LLM sample that fails at parsing
// stops sooner: what such a sample costs the compile stage, measured (the
// cost projection prices a failing compile from these samples).
const CompileErrorVariant = "compile-error"

// PlantCompileError is the operator of the compile-error variant.
const PlantCompileError = "compile_error"

// plantedError is the statement the compile-error variant adds: a TypeError
// in every compiler release (0.4.0 on).
const plantedError = " uint8 solbehaveCompileError = 256; "

// mutant regenerates the original bodies with mutations (see internal/mutate).
type mutant struct {
	rate    float64
	variant string // "", InterfaceVariant or CompileErrorVariant
}

func (m mutant) Name() string {
	if m.variant != "" {
		return KindMutant + ":" + m.variant
	}
	return KindMutant
}

func (mutant) Kind() string { return KindMutant }

func (m mutant) Digest(string) string {
	switch m.variant {
	case InterfaceVariant:
		return fmt.Sprintf("mutant rate=%v renames one public function of the chain", m.rate)
	case CompileErrorVariant:
		return fmt.Sprintf("mutant rate=%v plants a type error in one function body:%s", m.rate, plantedError)
	}
	return fmt.Sprintf("mutant rate=%v", m.rate)
}

func (m mutant) Generate(_ context.Context, t Task) *Result {
	orig, err := originalOf(t)
	if err != nil {
		return &Result{Err: err.Error()}
	}
	fns, err := targetFunctions(t)
	if err != nil {
		return &Result{Err: err.Error()}
	}
	opts := mutate.Options{Checked: checked(t.Original.Compiler), Modifiers: modifierNames(t.Original)}
	bodies, bodyEdits, headerEdits := map[int]string{}, map[int][]skeleton.Edit{}, map[int][]skeleton.Edit{}
	muts := []mutate.Mutation{}
	for _, i := range t.Skeleton.Holes() {
		f := t.Skeleton.Functions[i]
		bodies[i] = orig.Body(f)
		if f.Kind == "constructor" {
			continue
		}
		site, ok := mutate.Pick(t.Seed, i, mutate.Sites(t.Original.Files[f.File], fns[i], opts), m.rate)
		if !ok {
			continue
		}
		e := skeleton.Edit{Start: site.Start, End: site.End, Text: site.Text}
		if site.Header {
			headerEdits[i] = append(headerEdits[i], e)
		} else {
			bodyEdits[i] = append(bodyEdits[i], e)
			bodies[i] = orig.Body(f, bodyEdits[i]...)
		}
		muts = append(muts, mutate.Mutation{Function: f.Key, Signature: f.Signature, Operator: site.Operator, Detail: site.Detail})
	}
	if m.variant == CompileErrorVariant {
		if i, e, ok := errorSite(t); ok {
			f := t.Skeleton.Functions[i]
			bodyEdits[i] = append(bodyEdits[i], e)
			bodies[i] = orig.Body(f, bodyEdits[i]...)
			muts = append(muts, mutate.Mutation{Function: f.Key, Signature: f.Signature, Operator: PlantCompileError,
				Detail: "declared" + plantedError + "at the end of the body"})
		}
	}
	if m.variant == InterfaceVariant {
		if i, e, ok := renameSite(t); ok {
			f := t.Skeleton.Functions[i]
			headerEdits[i] = append(headerEdits[i], e)
			muts = append(muts, mutate.Mutation{Function: f.Key, Signature: f.Signature, Operator: RenameFunction,
				Detail: "renamed " + f.Name + " to " + e.Text})
		}
	}
	headers := map[int]string{}
	for i, es := range headerEdits {
		headers[i] = orig.Header(t.Skeleton.Functions[i], es...)
	}
	r := filled(t, bodies, headers)
	r.Mutations, r.Generated = muts, len(bodies)
	return r
}

// renameSite picks, by the sample's seed, one public or external function
// with a hole (the target's or a regenerated base's: a token may inherit
// every public function) and gives the edit that renames it in its header
// (in the original file's offsets).
func renameSite(t Task) (int, skeleton.Edit, bool) {
	var candidates []int
	for _, i := range t.Skeleton.Holes() {
		f := t.Skeleton.Functions[i]
		if f.Kind == "function" && (f.Visibility == "public" || f.Visibility == "external") {
			candidates = append(candidates, i)
		}
	}
	if len(candidates) == 0 {
		return 0, skeleton.Edit{}, false
	}
	i := candidates[int(uint64(t.Seed)%uint64(len(candidates)))]
	f := t.Skeleton.Functions[i]
	src := t.Original.Files[f.File]
	loc := regexp.MustCompile(`\bfunction\s+(` + regexp.QuoteMeta(f.Name) + `)\b`).FindStringSubmatchIndex(src[f.Orig.Start:f.Orig.BodyStart])
	if loc == nil {
		return 0, skeleton.Edit{}, false
	}
	start, end := f.Orig.Start+loc[2], f.Orig.Start+loc[3]
	return i, skeleton.Edit{Start: start, End: end, Text: f.Name + "Renamed"}, true
}

// errorSite picks, by the sample's seed, one function with a hole and gives
// the edit that plants the compile error just before its body's closing
// brace (after any statement a mutation edits there).
func errorSite(t Task) (int, skeleton.Edit, bool) {
	candidates := t.Skeleton.Holes() // each has a body
	if len(candidates) == 0 {
		return 0, skeleton.Edit{}, false
	}
	i := candidates[int(uint64(t.Seed)%uint64(len(candidates)))]
	end := t.Skeleton.Functions[i].Orig.BodyEnd - 1 // the closing brace
	return i, skeleton.Edit{Start: end, End: end, Text: plantedError}, true
}

// modifierNames are the modifier definitions of every file: a base's
// modifier (onlyOwner in its own file) is one the target's headers invoke.
func modifierNames(o *Original) map[string]bool {
	out := map[string]bool{}
	for _, root := range o.ASTs {
		for name := range mutate.ModifierNames(root) {
			out[name] = true
		}
	}
	return out
}

// checked reports whether a compiler version checks arithmetic (>= 0.8).
func checked(version string) bool {
	v := strings.TrimPrefix(version, "v")
	return !strings.HasPrefix(v, "0.4.") && !strings.HasPrefix(v, "0.5.") && !strings.HasPrefix(v, "0.6.") &&
		!strings.HasPrefix(v, "0.7.") && v != ""
}
