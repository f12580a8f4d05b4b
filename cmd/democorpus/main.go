// Command democorpus regenerates solbehave's demo corpus: the embedded demo
// contracts compiled with the real compiler, their scripted histories run on
// the embedded chain and recorded in Etherscan's format.
//
//	go run ./cmd/democorpus -out data/corpus/demo [-seed 42]
//	go run ./cmd/democorpus -ablation -out data/corpus/ablation   (the size ablation's 21-40 function ledgers)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"

	"github.com/solbehave/solbehave/internal/democorpus"
	"github.com/solbehave/solbehave/internal/faults"
	"github.com/solbehave/solbehave/internal/solc"
)

func main() {
	out := flag.String("out", "data/corpus/demo", "corpus folder to write")
	seed := flag.Uint64("seed", democorpus.DefaultSeed, "seed of the user population and the scenarios")
	reasons := flag.Bool("reasons", false, "also print why the reverted transactions failed")
	faultCorpus := flag.Bool("faults", false, "write the fault corpus (data/faults) instead")
	ablation := flag.Bool("ablation", false, "write the size ablation's generated ledgers (21-40 state-changing functions, data/corpus/ablation) instead")
	flag.Parse()
	if *faultCorpus {
		if err := writeFaults(*out); err != nil {
			fmt.Fprintln(os.Stderr, "democorpus:", err)
			os.Exit(1)
		}
		return
	}
	generate := democorpus.Generate
	if *ablation {
		generate = democorpus.GenerateAblation
	}
	if err := run(*out, *seed, *reasons, generate); err != nil {
		fmt.Fprintln(os.Stderr, "democorpus:", err)
		os.Exit(1)
	}
}

func writeFaults(out string) error {
	m := solc.NewManager(solc.Options{})
	defer m.Close()
	return faults.Write(context.Background(), m, out)
}

type generator func(context.Context, *solc.Manager, uint64) ([]*democorpus.Recording, error)

func run(out string, seed uint64, reasons bool, generate generator) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	m := solc.NewManager(solc.Options{})
	defer m.Close()
	recs, err := generate(ctx, m, seed)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := democorpus.WriteCorpus(out, recs); err != nil {
		return err
	}
	for _, r := range recs {
		fmt.Printf("%-16s %s %s %4d txs, %3d reverted (%.1f%%)\n", r.Source.ContractName, r.Address,
			r.Source.CompilerVersion, len(r.Txs), r.Reverted(), 100*float64(r.Reverted())/float64(len(r.Txs)))
		if reasons {
			printReasons(r)
		}
	}
	return nil
}

// printReasons tallies a history's failures by function and reason.
func printReasons(r *democorpus.Recording) {
	counts := map[string]int{}
	for i, why := range r.Reasons {
		if why != "" {
			counts[fmt.Sprintf("%s: %s", functionOf(r.Txs[i]), why)]++
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("    %4d  %s\n", counts[k], k)
	}
}

func functionOf(tx democorpus.TxRecord) string {
	if name, _, ok := strings.Cut(tx.FunctionName, "("); ok {
		return name
	}
	return "(fallback)"
}
