package callseq

import "github.com/solbehave/solbehave/internal/replay"

// The calls Algorithm 1 pruned (the original rejected them) are O4's
// probes: Replayable keeps each at the place it was tried, flagged
// replay.Call.Probe, so one replay serves O3 (the kept calls) and O4 (the
// probes, whose effects the replay discards).

// KeptOnly is s without its probes: the calls O3 replays.
func KeptOnly(s replay.Sequence) replay.Sequence {
	out := replay.Sequence{ID: s.ID}
	for _, c := range s.Calls {
		if !c.Probe {
			out.Calls = append(out.Calls, c)
		}
	}
	return out
}
