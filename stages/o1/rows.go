package o1

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/fuzz"
	"github.com/solbehave/solbehave/schemas"
)

// labels are the key columns every row of one sample carries.
type labels struct {
	contractID string
	contract   *deploy.Deployment // the original
	model      string
	sample     int64
}

func resultRow(l labels, m abi.Method, seed uint64, rep *fuzz.Report) schemas.FuzzResult {
	r := schemas.FuzzResult{
		ContractID: l.contractID, Model: l.model, Sample: l.sample,
		Function: m.RawName, Signature: m.Sig, Selector: hexutil.Encode(m.ID), Payable: m.IsPayable(),
		Equivalent: rep.Equivalent, Calls: int64(rep.Calls), ElapsedMS: rep.Elapsed.Milliseconds(),
		CoverageRef: int64(rep.CoverageRef.Instructions), CoverageSample: int64(rep.CoverageSample.Instructions),
		BranchesRef: int64(rep.CoverageRef.Branches), BranchesSample: int64(rep.CoverageSample.Branches),
		Corpus: int64(rep.Corpus), StopReason: rep.StopReason, Seed: int64(seed),
	}
	if cx := rep.Counterexample; cx != nil {
		r.CounterexampleSteps, r.FoundSteps, r.ShrinkRuns = int64(len(cx.Steps)), int64(cx.Found), int64(cx.ShrinkRuns)
	}
	return r
}

// undeployedRows: a sample whose deployment failed is non-equivalent on
// every fuzzable function, without a call.
func undeployedRows(l labels, methods []abi.Method, seed int64, err error) []schemas.FuzzResult {
	rows := make([]schemas.FuzzResult, len(methods))
	for i, m := range methods {
		rows[i] = resultRow(l, m, seedFor(seed, m.Sig), &fuzz.Report{StopReason: schemas.StopUndeployed})
		rows[i].Error = err.Error()
	}
	return rows
}

// missingRow: a function of the original the sample lacks (or whose
// selector or return types changed) is non-equivalent, without a call.
func missingRow(l labels, m abi.Method, seed int64) schemas.FuzzResult {
	return resultRow(l, m, seedFor(seed, m.Sig), &fuzz.Report{StopReason: schemas.StopMissing})
}

// sameCodeRows: a sample that behaves as the original by construction is
// equivalent on every fuzzable function, without a call.
func sameCodeRows(l labels, methods []abi.Method, seed int64) []schemas.FuzzResult {
	rows := make([]schemas.FuzzResult, len(methods))
	for i, m := range methods {
		rows[i] = resultRow(l, m, seedFor(seed, m.Sig), &fuzz.Report{Equivalent: true, StopReason: schemas.StopSameCode})
	}
	return rows
}

func counterexampleRows(l labels, m abi.Method, rep *fuzz.Report) []schemas.FuzzCounterexample {
	cx := rep.Counterexample
	if cx == nil {
		return nil
	}
	rows := make([]schemas.FuzzCounterexample, len(cx.Steps))
	for i, s := range cx.Steps {
		rows[i] = schemas.FuzzCounterexample{
			ContractID: l.contractID, Model: l.model, Sample: l.sample,
			Function: m.RawName, Selector: hexutil.Encode(m.ID),
			Step: int64(i), Steps: int64(len(cx.Steps)),
			Args: s.Args.JSON(m.Inputs), CallData: hexutil.Encode(s.Args.CallData(m)),
			Sender: strings.ToLower(l.contract.Deployer.Hex()), ValueWei: s.Value.Dec(),
			BlockNumber: int64(s.Block.Number), BlockTime: int64(s.Block.Time),
			StatusRef: s.Ref.Status(), StatusSample: s.Sample.Status(),
			ReturnRef: hexutil.Encode(s.Ref.ReturnData), ReturnSample: hexutil.Encode(s.Sample.ReturnData),
			RevertReasonRef: failureText(s.Ref), RevertReasonSample: failureText(s.Sample),
			Diverges: s.Diverges(),
		}
	}
	return rows
}

// failureText is why a call failed, in the words of replay_calls: the decoded
// revert reason, else the EVM error or harness fault; "" on success.
func failureText(o fuzz.Outcome) string {
	switch {
	case o.Success:
		return ""
	case o.RevertReason != "":
		return o.RevertReason
	case o.Err != "":
		return o.Err
	}
	return "reverted"
}

// seeds gathers what the dictionary of one (original, sample) pair is
// mined from.
func seeds(rec *deploy.Record, orig, sample *deploy.Deployment, sampleSrcs []string) fuzz.Seeds {
	s := fuzz.Seeds{
		Actors:  actors(rec, orig),
		Encoded: [][]byte{orig.Args},
		Sources: originalSources(rec),
	}
	s.Sources = append(s.Sources, sampleSrcs...)
	for _, d := range []*deploy.Deployment{orig, sample} {
		if d.Result != nil {
			s.Storage = append(s.Storage, d.Result.StorageWrites...)
		}
		if code, err := d.Contract.CreationCode(d.Libraries); err == nil {
			s.Code = append(s.Code, code)
		}
		s.Code = append(s.Code, d.Chain.Code(d.Address))
	}
	return s
}

// actors are the addresses that matter to the contract: its deployer and
// itself, its libraries, the coinbase and the first senders of its history.
func actors(rec *deploy.Record, orig *deploy.Deployment) []common.Address {
	out := []common.Address{orig.Deployer, orig.Address, chain.Coinbase}
	for _, name := range slices.Sorted(maps.Keys(orig.Libraries)) {
		out = append(out, orig.Libraries[name])
	}
	seen := map[common.Address]bool{}
	for _, tx := range rec.Txs {
		a := tx.From
		if !seen[a] && len(seen) < historyActors {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

// originalSources are the record's source files in name order.
func originalSources(rec *deploy.Record) []string {
	if rec.Files == nil {
		return nil
	}
	return inNameOrder(rec.Files.Files)
}

// inNameOrder lists the texts of files by file name.
func inNameOrder(files map[string]string) []string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = files[n]
	}
	return out
}
