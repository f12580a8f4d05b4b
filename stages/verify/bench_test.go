package verify

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
)

// BenchmarkVerifyContract measures the verify stage's cost per contract on
// each demo contract: compile (persistent solc worker, warm), deploy, and
// replay its first 200 transactions.
func BenchmarkVerifyContract(b *testing.B) {
	corpus := filepath.Join("..", "..", "data", "corpus", "demo")
	client, err := etherscan.NewRecorded(corpus)
	if err != nil {
		b.Fatal(err)
	}
	entries, _ := etherscan.ListCorpus(corpus)
	data := b.TempDir()
	env := &pipeline.Env{Corpus: corpus, Data: data, Jobs: 1, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Warehouse: warehouse.New(filepath.Join(data, "warehouse")), Engines: &pipeline.Engines{}}
	defer env.Engines.Close()
	s := New()
	for _, e := range entries {
		rec, err := deploy.Load(client, e, s.Budget)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(e.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				v := &verdict{rec: rec}
				if err := s.verify(context.Background(), env, v); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(rec.Txs))*float64(b.N)/b.Elapsed().Seconds(), "tx/s")
		})
	}
}

// BenchmarkReplay200 isolates the replay: deploy once, then replay the first
// 200 transactions on a fork of the post-deployment state.
func BenchmarkReplay200(b *testing.B) {
	corpus := filepath.Join("..", "..", "data", "corpus", "demo")
	client, _ := etherscan.NewRecorded(corpus)
	entries, _ := etherscan.ListCorpus(corpus)
	env := &pipeline.Env{Engines: &pipeline.Engines{}}
	defer env.Engines.Close()
	for _, e := range entries {
		rec, _ := deploy.Load(client, e, 200)
		out, err := env.Engines.Solc().Compile(context.Background(), rec.CompileInput(nil))
		if err != nil {
			b.Fatal(err)
		}
		target, _ := rec.Target(out)
		d, err := deploy.Deploy(rec, out, target, nil, chain.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(e.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				h := d.Chain.Fork()
				for _, tx := range rec.Txs {
					if _, err := d.Replay(h, tx); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(len(rec.Txs))*float64(b.N)/b.Elapsed().Seconds(), "tx/s")
		})
	}
}
