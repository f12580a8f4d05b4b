package replay

import (
	"bytes"
	"math"

	"github.com/solbehave/solbehave/schemas"
)

// The engine records per-call facts only (status match, gas flag, the hashes
// of events, return data and storage writes). Whether a sample diverges, and
// which secondary axes flag a call, is decided in one place: the SQL views
// replay_sample_summary and sample_verdicts (tested in summary_test.go).

// statusMatch is the divergence criterion of one call.
func statusMatch(ref, sample Outcome) bool { return ref.Status == sample.Status }

// GasFlag reports a gas deviation of the sample beyond tolerance × the original's gas.
func GasFlag(ref, sample uint64, tolerance float64) bool {
	return math.Abs(float64(sample)-float64(ref)) > tolerance*float64(ref)
}

// viewsMatch compares two readings of one view: same status and, when both
// succeeded, the same bytes.
func viewsMatch(ref, sample ViewValue) bool {
	return ref.Status == sample.Status && bytes.Equal(ref.Raw, sample.Raw)
}

// eachCall visits every call of every sequence with the original's and the
// sample's outcome (undeployed samples answer every call as such).
func (r *Result) eachCall(s SampleResult, f func(seq, step int, ref, got Outcome)) {
	for q, ref := range r.Ref {
		for i, o := range ref.Outcomes {
			got := undeployed(s.Sample.DeployErr)
			if s.Traces != nil {
				got = s.Traces[q].Outcomes[i]
			}
			f(q, i, o, got)
		}
	}
}

// eachView visits every view reading of every snapshot.
func (r *Result) eachView(s SampleResult, f func(seq, snap int, v View, ref, got ViewValue)) {
	for q, ref := range r.Ref {
		for k, snap := range ref.Snapshots {
			for j, v := range r.Views {
				got := ViewValue{Status: schemas.StatusUndeployed}
				if s.Traces != nil {
					got = s.Traces[q].Snapshots[k].Values[j]
				}
				f(q, k, v, snap.Values[j], got)
			}
		}
	}
}
