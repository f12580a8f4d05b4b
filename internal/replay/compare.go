package replay

import (
	"bytes"
	"math"

	"github.com/solbehave/solbehave/schemas"
)

// CallDiff compares one call's outcome on a sample with the original's.
type CallDiff struct {
	StatusMatch    bool // the divergence criterion
	GasFlag        bool // gas deviates beyond the tolerance
	EventsDiffer   bool // another number of events, or other topics
	ReturnDiffers  bool // other return data (successful calls)
	StorageDiffers bool // other storage writes (successful calls)
}

// Secondary reports whether any secondary axis flags the call.
func (d CallDiff) Secondary() bool {
	return d.GasFlag || d.EventsDiffer || d.ReturnDiffers || d.StorageDiffers
}

// SecondaryOnly reports a call only the secondary axes would flag.
func (d CallDiff) SecondaryOnly() bool { return d.StatusMatch && d.Secondary() }

// Diff compares a sample's outcome with the original's.
func Diff(ref, sample Outcome, gasTolerance float64) CallDiff {
	return CallDiff{
		StatusMatch:    ref.Status == sample.Status,
		GasFlag:        GasFlag(ref.GasUsed, sample.GasUsed, gasTolerance),
		EventsDiffer:   ref.NEvents != sample.NEvents || ref.Topics != sample.Topics,
		ReturnDiffers:  ref.Return != sample.Return,
		StorageDiffers: ref.Storage != sample.Storage,
	}
}

// GasFlag reports a gas deviation of the sample beyond tolerance × the original's gas.
func GasFlag(ref, sample uint64, tolerance float64) bool {
	return math.Abs(float64(sample)-float64(ref)) > tolerance*float64(ref)
}

// viewsMatch compares two readings of one view: same status and, when both
// succeeded, the same bytes.
func viewsMatch(ref, sample ViewValue) bool {
	return ref.Status == sample.Status && bytes.Equal(ref.Raw, sample.Raw)
}

// Summary is one sample's verdict over a comparison.
type Summary struct {
	Model  string
	Sample int64
	// Calls compared and, of those, calls whose status matched.
	Calls, StatusMatches int
	// FirstSeq and FirstStep locate the first status disagreement; -1 when none.
	FirstSeq, FirstStep int
	// SecondaryOnly counts calls whose status matched but a secondary axis differed.
	SecondaryOnly int
	// ViewMismatches counts view readings that differ.
	ViewMismatches int
}

// Divergent reports whether the sample disagreed with the original on any call.
func (s Summary) Divergent() bool { return s.StatusMatches < s.Calls }

// Summaries gives every sample's verdict, in sample order.
func (r *Result) Summaries() []Summary {
	out := make([]Summary, len(r.Samples))
	for i, s := range r.Samples {
		sum := Summary{Model: s.Sample.Model, Sample: s.Sample.Sample, FirstSeq: -1, FirstStep: -1}
		r.eachCall(s, func(seq, step int, ref, got Outcome) {
			d := Diff(ref, got, r.opts.gasTolerance())
			sum.Calls++
			if d.StatusMatch {
				sum.StatusMatches++
			} else if sum.FirstSeq < 0 {
				sum.FirstSeq, sum.FirstStep = seq, step
			}
			if d.SecondaryOnly() {
				sum.SecondaryOnly++
			}
		})
		r.eachView(s, func(_, _ int, _ View, ref, got ViewValue) {
			if !viewsMatch(ref, got) {
				sum.ViewMismatches++
			}
		})
		out[i] = sum
	}
	return out
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
