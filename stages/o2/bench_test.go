package o2

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
)

// benchContracts are kept mainnet contracts with 1,000 recorded transactions
// after their creation, of three compiler eras.
var benchContracts = []string{
	"FlashToken_0x20398ad62bb2d930646d45a6d4292baa0b860c1f",
	"N_0x9160f985182970590da93b3a188b2f8621a48b69",
	"ROAD_0xd7dcb670d682dffe9a36e0f33f1d3c59b98d3e56",
}

// benchSamples is the paper's k: ten compiling samples per contract.
const benchSamples = 10

// BenchmarkO2PerContract measures O2's cost per contract, (1 + compiling
// samples) x 1,000 calls: "unit" is one unit's Run (artifacts loaded, the
// original and ten samples deployed, every history replayed and compared,
// views read every 50 calls, rows built); "runner" adds planning (reading
// the record) and writing the Parquet parts, on one job. Compilation is the
// compile stage's cost and is left out. Without ../shared the demo corpus
// stands in (its histories are shorter).
func BenchmarkO2PerContract(b *testing.B) {
	corpus, ids := mainnetCorpus, benchContracts
	if _, err := os.Stat(corpus); err != nil {
		b.Logf("mainnet corpus absent (%v): benchmarking the demo corpus", err)
		corpus, ids = stagetest.DemoCorpus, nil
	}
	env := stagetest.NewEnv(b, corpus)
	env.Jobs = 1
	recs := stagetest.LoadRecords(b, corpus, 1000, ids...)
	calls := 0
	for _, rec := range recs {
		id, _ := stagetest.Compile(b, env, rec, nil)
		stagetest.WriteInputs(b, env, rec.Entry.ID, id, stagetest.References(benchSamples, id))
		calls += (1 + benchSamples) * len(rec.Txs)
	}
	ctx := context.Background()
	s := New()
	units, err := s.Plan(ctx, env)
	if err != nil || len(units) != len(recs) {
		b.Fatalf("plan: %d units, %v", len(units), err)
	}
	// On a shared machine wall time counts other processes' load too, so the
	// process's CPU time (user + system) is reported beside it.
	var cpu0 time.Duration
	report := func(b *testing.B) {
		secs := b.Elapsed().Seconds() / float64(b.N)
		cpu := (cpuTime() - cpu0).Seconds() / float64(b.N)
		b.ReportMetric(float64(calls)/secs, "calls/s")
		b.ReportMetric(secs/float64(len(units)), "s/contract")
		b.ReportMetric(cpu/float64(len(units)), "cpu-s/contract")
		b.ReportMetric(float64(calls)/float64(len(units)), "calls/contract")
	}
	b.Run("unit", func(b *testing.B) {
		cpu0 = cpuTime()
		for b.Loop() {
			for _, u := range units {
				if _, err := s.Run(ctx, env, u); err != nil {
					b.Fatal(err)
				}
			}
		}
		report(b)
	})
	b.Run("runner", func(b *testing.B) {
		r := &pipeline.Runner{Env: env, Force: true}
		cpu0 = cpuTime()
		for b.Loop() {
			if c, err := r.Run(ctx, s); err != nil || c.Failed > 0 {
				b.Fatalf("%+v %v", c, err)
			}
		}
		report(b)
	})
}

// cpuTime is the CPU time the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
