package o3

import (
	"github.com/solbehave/solbehave/internal/callseq"
	"github.com/solbehave/solbehave/internal/replay"
	"github.com/solbehave/solbehave/schemas"
)

// O4, negative replay (the paper's conclusion proposes it): every call
// Algorithm 1 pruned because the original rejected it is replayed as a probe
// at the state it was tried in, on the original and on every sample, and
// its effects are discarded, so O3's kept calls see the state they would
// see without it. A sample that accepts a call the original rejects
// diverges. Probes travel inside O3's sequences (callseq.Replayable); this
// file separates them back out: O4's rows, and O3's numbering of the kept
// calls around them.

// o4Row labels a probe's row as O4's; departs is 1 when the original did
// not reject the probe again (it rejected it during generation).
func o4Row(r schemas.ReplayCall) (row schemas.ReplayCall, departs int) {
	r.Oracle = schemas.OracleO4
	if r.StatusRef != schemas.StatusRevert {
		departs = 1
	}
	return r, departs
}

// split maps each replayed sequence's calls to O3's numbering: sequence id
// -> per call, the kept calls before it, and one entry more at the end, the
// sequence's kept calls in all.
type split map[int64][]int

func splitOf(seqs []replay.Sequence) split {
	sp := split{}
	for _, seq := range seqs {
		pos, kept := make([]int, len(seq.Calls)+1), 0
		for i, c := range seq.Calls {
			pos[i] = kept
			if !c.Probe {
				kept++
			}
		}
		pos[len(seq.Calls)] = kept
		sp[seq.ID] = pos
	}
	return sp
}

// keptBefore counts the kept calls among a sequence's first n calls.
func (sp split) keptBefore(seqID int64, n int) int {
	pos := sp[seqID]
	if len(pos) == 0 {
		return 0
	}
	return pos[min(n, len(pos)-1)]
}

// keptResult is the comparison restricted to the kept calls: what O3's
// coverage counts.
func keptResult(res *replay.Result) *replay.Result {
	kept := &replay.Result{ABI: res.ABI, Views: res.Views}
	for q, seq := range res.Sequences {
		t := &replay.Trace{}
		for i, c := range seq.Calls {
			if !c.Probe {
				t.Outcomes = append(t.Outcomes, res.Ref[q].Outcomes[i])
			}
		}
		kept.Sequences = append(kept.Sequences, callseq.KeptOnly(seq))
		kept.Ref = append(kept.Ref, t)
	}
	return kept
}
