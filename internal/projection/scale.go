package projection

import (
	"cmp"
	"fmt"
	"math"
)

// Scale is the evaluation a projection costs: by default the solbehave
// paper's §IV-A (construction), §V-A (protocol), Table I (compile rates per
// model) and Figure 2 (sizes); LikeRun makes one from a measured run.
type Scale struct {
	Name                    string
	Crawled, Verified, Kept int
	Models, K               int
	// RawCompile and Repaired are Table I's Compile@10 per model, before and
	// after the one repair pass: the samples that do not compile raw get a
	// repair (one more compile), the repaired ones reach the oracles.
	RawCompile, Repaired []float64
	// Equivalent is the share of compiling function pairs O1 finds
	// equivalent, pooled over models and samples (31.4%).
	Equivalent float64
	O2Txs      int // O2's budget: the first 1,000 recorded transactions
	// O3Settings: every sample is replayed on the reference extractor's
	// sequences and on its own model's (§V-D's fixed and matched settings).
	O3Settings float64
	// CrawledMix and KeptMix are Figure 2's size distributions (non-trivial
	// functions) of the crawled candidates and of the 250 kept contracts.
	CrawledMix, KeptMix []SizeShare
	// Compilers bounds the compiler versions of the crawled contracts (every
	// solc release, 0.4.0 to 0.8.30) and Jobs is the machine the evaluation
	// runs on (16 cores): a compiling stage starts a worker per version and job.
	Compilers, Jobs int
}

// WorkerStarts is how many solc workers a compiling stage starts.
func (p Scale) WorkerStarts() float64 { return float64(p.Compilers + p.Jobs) }

// SizeShare is one Figure 2 bucket: its share of the contracts and the
// function count the projection evaluates the fitted costs at.
type SizeShare struct {
	Bucket    string  `json:"bucket"`
	Functions float64 `json:"functions"`
	Share     float64 `json:"share"`
}

// Paper is the solbehave paper's evaluation. Buckets are evaluated at their
// middle; the kept 11-20 bucket at 16, the paper's median (p75 = 18), and the
// open 31+ bucket at 40 (the paper gives no upper end).
var Paper = Scale{
	Name:    "the paper's evaluation (§IV-A, §V)",
	Crawled: 8360, Verified: 2098, Kept: 250, Models: 7, K: 10,
	RawCompile: []float64{0.891, 0.647, 0.532, 0.480, 0.412, 0.343, 0.188},
	Repaired:   []float64{0.927, 0.713, 0.618, 0.579, 0.521, 0.399, 0.264},
	Equivalent: 0.314, O2Txs: 1000, O3Settings: 2,
	CrawledMix: []SizeShare{{"0", 0, 0.09}, {"1-5", 3, 0.09}, {"6-10", 8, 0.08}, {"11-20", 15.5, 0.14},
		{"21-30", 25.5, 0.22}, {"31+", 40, 0.38}},
	KeptMix:   []SizeShare{{"1-5", 3, 37.0 / 250}, {"6-10", 8, 40.0 / 250}, {"11-20", 16, 173.0 / 250}},
	Compilers: 96, Jobs: 16,
}

// Samples is every generated sample: kept contracts x models x k.
func (p Scale) Samples() float64 { return float64(p.Kept * p.Models * p.K) }

// Repairs is the samples that do not compile as generated (one repair each).
func (p Scale) Repairs() float64 {
	return float64(p.Kept*p.K) * sumOf(p.RawCompile, func(r float64) float64 { return 1 - r })
}

// CompilingRaw is the samples that compile as generated.
func (p Scale) CompilingRaw() float64 {
	return float64(p.Kept*p.K) * sumOf(p.RawCompile, func(r float64) float64 { return r })
}

// Compiling is the samples that compile after repair: the oracles' subjects.
func (p Scale) Compiling() float64 {
	return float64(p.Kept*p.K) * sumOf(p.Repaired, func(r float64) float64 { return r })
}

// PipelineUnits is how many units the evaluation's stages run (crawl and
// verify per candidate; skeleton, o2, o3 per kept contract; generate,
// compile, o1, dcr and sequences per kept contract and model), which the
// Temporal overhead is paid on.
func (p Scale) PipelineUnits() float64 {
	return float64(2*p.Crawled + p.Kept*(3+5*p.Models))
}

func sumOf(xs []float64, f func(float64) float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += f(x)
	}
	return s
}

// Target is a run like the measured one at another size: the measured run's
// compile and equivalence rates, transactions, graph settings and contract
// sizes, with these counts. Zero fields keep the measured run's.
type Target struct {
	Candidates, Kept, Models, K, Jobs int
}

// LikeRun is the evaluation t describes, shaped like the measured run.
func LikeRun(m *Measured, t Target) Scale {
	r := m.Run
	s := Scale{Crawled: r.Candidates, Kept: r.Kept, Models: max(r.Models, 1), K: int(math.Round(r.K)),
		Equivalent: r.Equivalent, O2Txs: int(math.Round(r.O2Txs)), O3Settings: r.O3Settings,
		CrawledMix: mixOf(r.CrawledSizes), KeptMix: mixOf(r.KeptSizes), Jobs: max(r.Jobs, 1)}
	if t.Candidates > 0 {
		s.Crawled = t.Candidates
		if t.Kept == 0 && r.Candidates > 0 { // the measured keep rate
			s.Kept = int(math.Round(float64(t.Candidates) * float64(r.Kept) / float64(r.Candidates)))
		}
	}
	s.Kept, s.Models, s.K, s.Jobs = cmp.Or(t.Kept, s.Kept), cmp.Or(t.Models, s.Models), cmp.Or(t.K, s.K), cmp.Or(t.Jobs, s.Jobs)
	s.Verified = s.Crawled
	for range s.Models {
		s.RawCompile = append(s.RawCompile, r.RawCompile)
		s.Repaired = append(s.Repaired, r.Repaired)
	}
	// Distinct compilers grow with the candidates, up to every solc release.
	s.Compilers = r.Compilers
	if r.Candidates > 0 && s.Crawled > r.Candidates {
		s.Compilers = min(Paper.Compilers, int(math.Ceil(float64(r.Compilers)*float64(s.Crawled)/float64(r.Candidates))))
	}
	s.Name = fmt.Sprintf("a run like the measured one: %d candidates, %d kept, %d model(s) x k = %d", s.Crawled, s.Kept, s.Models, s.K)
	return s
}

// mixOf is a size distribution with each measured contract a share.
func mixOf(sizes []float64) []SizeShare {
	out := make([]SizeShare, 0, len(sizes))
	for _, n := range sizes {
		out = append(out, SizeShare{Bucket: fmt.Sprint(n), Functions: n, Share: 1 / float64(len(sizes))})
	}
	return out
}
