package fuzz

import "github.com/solbehave/solbehave/internal/chain"

// tracker accumulates one deployment's coverage over a campaign and says
// whether the last call reached anything new.
type tracker struct {
	total chain.Coverage
	fresh bool // the last observed call added coverage
}

func newTracker() *tracker { return &tracker{} }

func (t *tracker) options() chain.Options { return chain.Options{Coverage: true} }

func (t *tracker) observe(res *chain.Result) {
	pcs, branches := t.total.Merge(res.Coverage)
	t.fresh = pcs > 0 || branches > 0
}

func (t *tracker) stats() CoverageStats {
	return CoverageStats{Instructions: len(t.total.PCs), Branches: len(t.total.Branches)}
}
