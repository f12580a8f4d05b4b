// Package subjects reads what every oracle stage starts from: which corpus
// contracts were kept, the compiler artifacts of their originals, and the
// samples that compiled. Stages never import each other, so this one reading
// of the upstream datasets lives here instead of in each oracle.
package subjects

import (
	"sort"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// Originals are the kept contracts and their originals' artifacts.
type Originals struct {
	Kept      map[string]bool   // contract -> passed every admission filter
	Artifacts map[string]string // contract -> the original's artifact id (internal/artifact)
}

// ReadOriginals reads `contracts` and `reproducibility`.
func ReadOriginals(w *warehouse.Warehouse) (*Originals, error) {
	contracts, err := warehouse.ReadDataset(w, schemas.Contracts)
	if err != nil {
		return nil, err
	}
	repro, err := warehouse.ReadDataset(w, schemas.Reproducibility)
	if err != nil {
		return nil, err
	}
	o := &Originals{Kept: map[string]bool{}, Artifacts: map[string]string{}}
	for _, c := range contracts {
		o.Kept[c.ContractID] = o.Kept[c.ContractID] || c.Kept
	}
	for _, r := range repro {
		if r.Artifact != "" {
			o.Artifacts[r.ContractID] = r.Artifact
		}
	}
	return o, nil
}

// CompilingSamples reads `samples` and keeps, per contract, the samples an
// oracle compares (compiled after repair, with an artifact), once each (the
// dataset may hold a sample's row from more than one stage), ordered by
// model and sample index.
func CompilingSamples(w *warehouse.Warehouse) (map[string][]schemas.Sample, error) {
	rows, err := warehouse.ReadDataset(w, schemas.Samples)
	if err != nil {
		return nil, err
	}
	type key struct {
		contract, model string
		sample          int64
	}
	seen := map[key]bool{}
	out := map[string][]schemas.Sample{}
	for _, r := range rows {
		k := key{r.ContractID, r.Model, r.Sample}
		if !r.CompiledRepaired || r.Artifact == "" || seen[k] {
			continue
		}
		seen[k] = true
		out[r.ContractID] = append(out[r.ContractID], r)
	}
	for _, list := range out {
		sort.Slice(list, func(i, j int) bool {
			if list[i].Model != list[j].Model {
				return list[i].Model < list[j].Model
			}
			return list[i].Sample < list[j].Sample
		})
	}
	return out, nil
}

// Key is what a replay unit's output depends on per sample: part of the
// O2 and O3 fingerprints.
type Key struct {
	Model    string
	Sample   int64
	Artifact string
}

// Keys are the samples' keys, in order.
func Keys(samples []schemas.Sample) []Key {
	keys := make([]Key, len(samples))
	for i, s := range samples {
		keys[i] = Key{Model: s.Model, Sample: s.Sample, Artifact: s.Artifact}
	}
	return keys
}

// ByModel splits one contract's samples by model, keeping their order.
func ByModel(samples []schemas.Sample) map[string][]schemas.Sample {
	out := map[string][]schemas.Sample{}
	for _, s := range samples {
		out[s.Model] = append(out[s.Model], s)
	}
	return out
}

// Subject is a kept contract as an oracle stage plans it.
type Subject struct {
	Entry    etherscan.Entry
	Record   *deploy.Record // may be set beside LoadErr (an unverified or unparsable source)
	LoadErr  error          // why the record could not be read: the contract's units fail with it
	Digest   string         // of source and history (the contract id without a record): part of every fingerprint
	Artifact string         // the original's artifact id
}

// Open reads the originals and opens the corpus in dir: the start of a plan
// that walks every corpus contract beside what verify kept (dcr, generate).
func Open(w *warehouse.Warehouse, dir string) (*Originals, *deploy.Corpus, error) {
	orig, err := ReadOriginals(w)
	if err != nil {
		return nil, nil, err
	}
	c, err := deploy.OpenCorpus(dir)
	if err != nil {
		return nil, nil, err
	}
	return orig, c, nil
}

// KeptIn opens the corpus in dir and returns its kept contracts as Kept does:
// the start of every oracle stage's plan.
func KeptIn(dir string, orig *Originals, limit int, want func(id string) bool) ([]Subject, error) {
	c, err := deploy.OpenCorpus(dir)
	if err != nil {
		return nil, err
	}
	return Kept(c, orig, limit, want), nil
}

// KeptCompared reads the originals and the compiling samples and returns the
// kept contracts with a compiling sample for which want holds (nil: all),
// each with its samples: the start of every plan that compares samples with
// their originals. Without a compiling sample it opens no corpus.
func KeptCompared(w *warehouse.Warehouse, dir string, limit int, want func(id string) bool) ([]Subject, map[string][]schemas.Sample, error) {
	orig, err := ReadOriginals(w)
	if err != nil {
		return nil, nil, err
	}
	samples, err := CompilingSamples(w)
	if err != nil || len(samples) == 0 {
		return nil, nil, err
	}
	kept, err := KeptIn(dir, orig, limit, func(id string) bool { return len(samples[id]) > 0 && (want == nil || want(id)) })
	if err != nil {
		return nil, nil, err
	}
	return kept, samples, nil
}

// Kept returns the kept contracts of the corpus for which want holds (nil:
// all), in corpus order, each with its record read to limit transactions.
func Kept(c *deploy.Corpus, orig *Originals, limit int, want func(id string) bool) []Subject {
	var out []Subject
	for _, e := range c.Entries {
		if !orig.Kept[e.ID] || (want != nil && !want(e.ID)) {
			continue
		}
		s := Subject{Entry: e, Digest: e.ID, Artifact: orig.Artifacts[e.ID]}
		s.Record, s.LoadErr = c.Load(e, limit)
		if s.Record != nil {
			s.Digest = s.Record.Digest
		}
		out = append(out, s)
	}
	return out
}
