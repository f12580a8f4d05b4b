package regen

import (
	"context"
	"fmt"
	"strings"

	"github.com/solbehave/solbehave/internal/mutate"
	"github.com/solbehave/solbehave/internal/skeleton"
)

// mutant regenerates the original bodies with mutations (see internal/mutate).
type mutant struct{ rate float64 }

func (mutant) Name() string           { return KindMutant }
func (mutant) Kind() string           { return KindMutant }
func (m mutant) Digest(string) string { return fmt.Sprintf("mutant rate=%v", m.rate) }

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
	bodies, headers := map[int]string{}, map[int]string{}
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
			headers[i] = orig.Header(f, e)
		} else {
			bodies[i] = orig.Body(f, e)
		}
		muts = append(muts, mutate.Mutation{Function: f.Key, Signature: f.Signature, Operator: site.Operator, Detail: site.Detail})
	}
	r := filled(t, bodies, headers)
	r.Mutations, r.Generated = muts, len(bodies)
	return r
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
