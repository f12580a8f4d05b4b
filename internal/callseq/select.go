package callseq

import (
	"math"
	"math/big"

	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/fuzz"
	"github.com/solbehave/solbehave/schemas"
)

// choose is SELECT: an obligation with probability β, else a prerequisite
// with probability α, else any candidate; within the chosen pool, by UCB.
func (g *generator) choose(cands []candidate, awaited map[string]bool, m *dcrgraph.Marking) (candidate, string) {
	var obligations, prerequisites []candidate
	for _, c := range cands {
		if m.IsPending(c.id) && m.IsIncluded(c.id) {
			obligations = append(obligations, c)
		}
		if awaited[c.id] {
			prerequisites = append(prerequisites, c)
		}
	}
	if len(obligations) > 0 && g.rng.Float64() < g.cfg.Beta {
		return g.ucb(obligations), PriorityObligation
	}
	if len(prerequisites) > 0 && g.rng.Float64() < g.cfg.Alpha {
		return g.ucb(prerequisites), PriorityPrerequisite
	}
	return g.ucb(cands), PriorityUCB
}

// ucb picks an untried event at random if there is one, else the highest
// success rate plus Bonus·sqrt(ln N / n), the first in id order on a tie.
func (g *generator) ucb(pool []candidate) candidate {
	var untried []candidate
	for _, c := range pool {
		if g.stats[c.id].attempts == 0 {
			untried = append(untried, c)
		}
	}
	if len(untried) > 0 {
		return untried[g.rng.IntN(len(untried))]
	}
	best, bestScore := pool[0], math.Inf(-1)
	logN := math.Log(float64(max(g.total, 1)))
	for _, c := range pool {
		t := g.stats[c.id]
		n := float64(t.attempts)
		score := float64(t.successes)/n + g.cfg.Bonus*math.Sqrt(logN/n)
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// proposed is the event's call with the arguments and value the graph
// proposes.
func (g *generator) proposed(ev dcrgraph.Event) variant {
	v := variant{source: ArgsProposed, value: new(big.Int)}
	wei, err := ev.Wei()
	if err != nil {
		v.status, v.reason = schemas.StatusUnencodable, err.Error()
		return v
	}
	v.value = wei
	if err := g.methodErr[ev.ID]; err != nil {
		v.status, v.reason = schemas.StatusUnknownFunction, err.Error()
		return v
	}
	m := g.methods[ev.ID]
	if m == nil { // fallback or receive: a plain transfer
		return v
	}
	if v.data, err = encodeCall(m, ev.Args); err != nil {
		v.status, v.reason = schemas.StatusUnencodable, err.Error()
	}
	return v
}

// fallback is the next argument tuple to try after tried, if any. A
// proposal that could not be sent (its arguments do not encode) gets one
// recorded call of the function instead, in every profile (the paper
// decodes arguments from history where a proposal is unusable). A proposal
// that reverted gets up to HistoryTries recorded tuples not yet tried
// (successful ones first), then up to SearchTries generated ones; the paper
// tries none. Events of a `fail` branch and functions the ABI lacks get no
// other tuple, nor an event whose last FallbackPatience fallbacks all found
// nothing.
func (g *generator) fallback(ev dcrgraph.Event, tried []variant) (variant, bool) {
	if ev.Branch == "fail" || g.methodErr[ev.ID] != nil ||
		(g.cfg.FallbackPatience > 0 && g.stats[ev.ID].fruitless >= g.cfg.FallbackPatience) {
		return variant{}, false
	}
	history, search := 0, 0
	for _, v := range tried {
		switch v.source {
		case ArgsHistory:
			history++
		case ArgsSearch:
			search++
		}
	}
	unusable := tried[0].status != "" && history == 0 && search == 0
	if (unusable || history < g.cfg.HistoryTries) && search == 0 {
		if v, ok := g.fromHistory(ev, tried); ok {
			return v, true
		}
	}
	// A few draws per try: a generated tuple may repeat one already tried.
	for draw := 0; search < g.cfg.SearchTries && draw < 4; draw++ {
		v, ok := g.generated(ev)
		if !ok {
			break
		}
		if !triedVariant(tried, v) {
			return v, true
		}
	}
	return variant{}, false
}

func triedVariant(tried []variant, v variant) bool {
	return triedCall(tried, recorded{data: v.data, value: v.value})
}

// fromHistory draws a recorded call of the event's function not yet tried,
// among the successful ones while any is left.
func (g *generator) fromHistory(ev dcrgraph.Event, tried []variant) (variant, bool) {
	key := ""
	if m := g.methods[ev.ID]; m != nil {
		key = string(m.ID)
	}
	var fresh []recorded
	for _, rc := range g.history[key] {
		if !triedCall(tried, rc) && (len(fresh) == 0 || fresh[0].succeeded == rc.succeeded) {
			fresh = append(fresh, rc)
		}
	}
	if len(fresh) == 0 {
		return variant{}, false
	}
	rc := fresh[g.rng.IntN(len(fresh))]
	return variant{source: ArgsHistory, data: rc.data, value: rc.value}, true
}

func triedCall(tried []variant, rc recorded) bool {
	for _, v := range tried {
		if sameCall(v.data, rc.data, v.value, rc.value) {
			return true
		}
	}
	return false
}

// generated is a tuple from the O1 value generators; a plain transfer
// gets a generated value instead.
func (g *generator) generated(ev dcrgraph.Event) (variant, bool) {
	wei, _ := ev.Wei()
	m := g.methods[ev.ID]
	if m == nil {
		w := g.search.Wei()
		return variant{source: ArgsSearch, value: w.ToBig()}, true
	}
	if len(m.Inputs) == 0 && !m.Payable {
		return variant{}, false // nothing to vary
	}
	for _, in := range m.Inputs {
		if !fuzz.Supported(in.Type) {
			return variant{}, false
		}
	}
	data, _, err := g.search.CallData(*m)
	if err != nil {
		return variant{}, false
	}
	switch {
	case !m.Payable:
		wei = new(big.Int)
	case len(m.Inputs) == 0 || g.search.Intn(2) == 0:
		w := g.search.Wei()
		wei = w.ToBig()
	}
	return variant{source: ArgsSearch, data: data, value: wei}, true
}
