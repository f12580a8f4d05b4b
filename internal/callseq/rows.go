package callseq

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/replay"
	"github.com/solbehave/solbehave/schemas"
)

// Rows are the result's rows of `sequence_calls`, in attempt order, for the
// graph of extractor under the named profile.
func (r *Result) Rows(contractID, extractor, profile string) []schemas.SequenceCall {
	rows := make([]schemas.SequenceCall, len(r.Attempts))
	for i, a := range r.Attempts {
		c := a.Call
		row := schemas.SequenceCall{ContractID: contractID, Extractor: extractor, Profile: profile,
			Seq: int64(a.Seq), Step: int64(a.Step), Try: int64(a.Try), Position: int64(a.Position),
			Event: a.Event, Function: a.Function, Branch: a.Branch, Role: string(a.Role), Priority: a.Priority,
			ArgsSource: a.ArgsSource, Args: a.Args, Sender: lowerHex(c.From), ValueWei: bigOrZero(c.Value).String(),
			Data: "0x" + hex.EncodeToString(c.Data), BlockNumber: int64(c.Block.Number), BlockTime: int64(c.Block.Time),
			GasLimit: int64(gasLimit(c.Gas)), Status: a.Status, Kept: a.Kept, RevertReason: a.Reason,
			GasUsed: int64(a.GasUsed), Candidates: int64(a.Candidates), MarkingBefore: a.Before,
			MarkingAfter: a.After, Pending: a.Pending, GuardErrors: int64(a.GuardErrors), SequenceEnd: a.End}
		if len(c.Data) >= 4 {
			row.Selector = "0x" + hex.EncodeToString(c.Data[:4])
		}
		rows[i] = row
	}
	return rows
}

func gasLimit(g uint64) uint64 {
	if g == 0 {
		return chain.DefaultGas
	}
	return g
}

// Replayable rebuilds, from one contract's rows of one extractor and profile, its
// sequences in order, each holding every call that reached the chain at the
// place it was tried: the kept calls as they are and the refused ones
// (status revert) as probes, whose effects the replay discards. Its kept
// calls alone are O3's sequence; its probes, each at the state it was tried
// in, O4's. Rows that never reached the chain, or that the harness could
// not run, are left out.
func Replayable(rows []schemas.SequenceCall) ([]replay.Sequence, error) {
	sorted := append([]schemas.SequenceCall(nil), rows...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Seq != b.Seq {
			return a.Seq < b.Seq
		}
		if a.Step != b.Step {
			return a.Step < b.Step
		}
		return a.Try < b.Try
	})
	var seqs []replay.Sequence
	for _, row := range sorted {
		if !row.Kept && row.Status != schemas.StatusRevert {
			continue
		}
		c, err := callOf(row)
		if err != nil {
			return nil, fmt.Errorf("sequence %d step %d try %d: %w", row.Seq, row.Step, row.Try, err)
		}
		if len(seqs) == 0 || seqs[len(seqs)-1].ID != row.Seq {
			seqs = append(seqs, replay.Sequence{ID: row.Seq})
		}
		last := &seqs[len(seqs)-1]
		last.Calls = append(last.Calls, c)
	}
	return seqs, nil
}

func callOf(row schemas.SequenceCall) (replay.Call, error) {
	data, err := hex.DecodeString(strings.TrimPrefix(row.Data, "0x"))
	if err != nil {
		return replay.Call{}, fmt.Errorf("data %q: %w", row.Data, err)
	}
	value, ok := new(big.Int).SetString(row.ValueWei, 10)
	if !ok || value.Sign() < 0 {
		return replay.Call{}, fmt.Errorf("value %q is not a wei amount", row.ValueWei)
	}
	if !common.IsHexAddress(row.Sender) || row.BlockNumber < 0 || row.BlockTime < 0 || row.GasLimit <= 0 {
		return replay.Call{}, fmt.Errorf("bad sender %q, block (%d, %d) or gas %d", row.Sender, row.BlockNumber, row.BlockTime, row.GasLimit)
	}
	return replay.Call{From: common.HexToAddress(row.Sender), Data: data, Value: value, Gas: uint64(row.GasLimit),
		Block:  chain.Block{Number: uint64(row.BlockNumber), Time: uint64(row.BlockTime)},
		TxHash: fmt.Sprintf("seq%d/step%d/try%d", row.Seq, row.Step, row.Try), Probe: !row.Kept}, nil
}
