package verify

import (
	"encoding/hex"
	"fmt"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/schemas"
)

// verdict accumulates what verifying one contract found.
type verdict struct {
	rec          *deploy.Record
	repro        schemas.ReproducibilityRow
	calls        []schemas.VerifyCall
	functions    functionCount
	functionRows []schemas.Function
	sizeKept     bool
	firstReason  string
}

func (v *verdict) fail(err error) {
	v.repro.ReasonClass = reasonClass(err).String()
	v.repro.Reason = err.Error()
}

// record compares one replayed transaction with its record.
func (v *verdict) record(d *deploy.Deployment, tx deploy.Tx, res *chain.Result) {
	recorded, replayed := status(tx.Succeeded), status(res.Success)
	input := tx.Input
	call := schemas.VerifyCall{
		ContractID: v.repro.ContractID, TxIndex: int64(tx.Index), TxHash: tx.Hash,
		Sender: tx.Sender, ValueWei: tx.Value.String(), BlockNumber: int64(tx.Block.Number),
		RecordedStatus: recorded, ReplayedStatus: replayed, StatusMatch: recorded == replayed,
		RecordedGas: int64(tx.GasUsed), ReplayedGas: int64(res.GasUsed), RevertReason: failureText(res),
	}
	if len(input) >= 4 {
		call.Selector = "0x" + hex.EncodeToString(input[:4])
		if m, err := d.ABI.MethodById(input[:4]); err == nil {
			call.Function = m.Name
		}
	}
	v.calls = append(v.calls, call)
	v.repro.Replayed++
	if call.StatusMatch {
		v.repro.Reproduced++
	} else if v.repro.FirstDivergingTx < 0 {
		v.repro.FirstDivergingTx = call.TxIndex
		v.firstReason = fmt.Sprintf(" (%s: recorded %s, replayed %s %s)", call.Function, recorded, replayed, call.RevertReason)
	}
}

func status(ok bool) schemas.CallStatus {
	if ok {
		return schemas.StatusSuccess
	}
	return schemas.StatusRevert
}

// failureText is the decoded revert reason, else the EVM error, of a failed call.
func failureText(res *chain.Result) string {
	if res.Success {
		return ""
	}
	if res.RevertReason != "" {
		return res.RevertReason
	}
	if res.Err != nil {
		return res.Err.Error()
	}
	return "reverted"
}

// contractRow is the contract's row of the `contracts` dataset: kept when it
// reproduces and passes the size filter.
func (v *verdict) contractRow() schemas.Contract {
	r := v.repro
	n := v.functions.nontrivial
	c := schemas.Contract{
		ContractID: r.ContractID, Address: r.Address, Name: r.Name,
		CompilerRequested: r.CompilerRequested, CompilerUsed: r.CompilerUsed,
		NFunctions: int64(v.functions.abi), NStateChangingABI: int64(v.functions.stateChangingABI),
		NNontrivialFunctions: int64(n), SizeBucket: schemas.SizeBucket(int64(n)), NTransactions: int64(len(v.rec.Txs)),
		Kept: r.Kept && v.sizeKept, Reason: r.Reason,
	}
	if src := v.rec.Source; src != nil {
		c.Optimizer, c.Runs = src.OptimizationUsed == 1, int64(src.Runs)
		c.SourceSHA256 = sha256Hex(src.SourceCode)
	}
	if r.Kept && !v.sizeKept {
		c.Reason = fmt.Sprintf("size filter: %d non-trivial functions", n)
	}
	return c
}

// functionCount sizes a contract: its ABI methods, the state-changing ones
// among them (Table IV's denominator), and its non-trivial functions (the
// size filter's count, over the inheritance chain).
type functionCount struct{ abi, stateChangingABI, nontrivial int }

// countFunctions counts the ABI's methods and the state-changing ones
// (neither view nor pure; the constructor, fallback and receive are not ABI
// methods), and the chain's non-trivial functions among rows.
func countFunctions(c *solc.Contract, rows []schemas.Function) functionCount {
	var n functionCount
	for _, r := range rows {
		if r.Nontrivial {
			n.nontrivial++
		}
	}
	parsed, err := parseABI(c)
	if err != nil {
		return n
	}
	for _, m := range parsed.Methods {
		n.abi++
		if !m.IsConstant() {
			n.stateChangingABI++
		}
	}
	return n
}
