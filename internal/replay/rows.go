package replay

import (
	"encoding/hex"
	"sort"
	"strings"

	"github.com/solbehave/solbehave/schemas"
)

// Labels say which oracle produced the compared calls, for the rows.
type Labels struct {
	ContractID   string
	Oracle       string // schemas.OracleO2, OracleO3, OracleO4
	GraphSetting string // "" for O2
}

// callInfo is what a call's rows say about the call itself, whatever the sample.
type callInfo struct {
	selector, function, sender, value string
	block                             int64
}

func (r *Result) callInfos(seq Sequence) []callInfo {
	infos := make([]callInfo, len(seq.Calls))
	for i, c := range seq.Calls {
		ci := callInfo{sender: strings.ToLower(c.From.Hex()), value: "0", block: int64(c.Block.Number)}
		if c.Value != nil {
			ci.value = c.Value.String()
		}
		if len(c.Data) >= 4 {
			ci.selector = "0x" + hex.EncodeToString(c.Data[:4])
			if m, err := r.ABI.MethodById(c.Data[:4]); err == nil {
				ci.function = m.Name
			}
		}
		infos[i] = ci
	}
	return infos
}

// calls counts the calls of every sequence.
func (r *Result) calls() int {
	n := 0
	for _, seq := range r.Sequences {
		n += len(seq.Calls)
	}
	return n
}

// CallRows are the comparison's rows of `replay_calls`: one per call per sample.
func (r *Result) CallRows(l Labels) []schemas.ReplayCall {
	infos := make([][]callInfo, len(r.Sequences))
	for q, seq := range r.Sequences {
		infos[q] = r.callInfos(seq)
	}
	rows := make([]schemas.ReplayCall, 0, len(r.Samples)*r.calls())
	for _, s := range r.Samples {
		r.eachCall(s, func(q, i int, ref, got Outcome) {
			seq, ci := r.Sequences[q], infos[q][i]
			rows = append(rows, schemas.ReplayCall{
				ContractID: l.ContractID, Model: s.Sample.Model, Sample: s.Sample.Sample,
				Oracle: l.Oracle, GraphSetting: l.GraphSetting, Seq: seq.ID, Step: int64(i),
				TxHash: seq.Calls[i].TxHash, Selector: ci.selector, Function: ci.function,
				Sender: ci.sender, ValueWei: ci.value, BlockNumber: ci.block, Probe: seq.Calls[i].Probe,
				StatusRef: ref.Status, StatusSample: got.Status, StatusMatch: statusMatch(ref, got),
				GasRef: int64(ref.GasUsed), GasSample: int64(got.GasUsed), GasFlag: GasFlag(ref.GasUsed, got.GasUsed, r.opts.gasTolerance()),
				NEventsRef: int64(ref.NEvents), NEventsSample: int64(got.NEvents),
				TopicsRefSHA256: ref.Topics, TopicsSampleSHA256: got.Topics,
				ReturnRefSHA256: ref.Return, ReturnSampleSHA256: got.Return,
				StorageWritesRefSHA256: ref.Storage, StorageWritesSampleSHA256: got.Storage,
				RevertReasonRef: ref.Reason, RevertReasonSample: got.Reason, GasLimited: got.GasLimited,
			})
		})
	}
	return rows
}

// ViewRows are the comparison's rows of `view_snapshots`.
func (r *Result) ViewRows(l Labels) []schemas.ViewSnapshot {
	snaps := 0
	for _, t := range r.Ref {
		snaps += len(t.Snapshots)
	}
	rows := make([]schemas.ViewSnapshot, 0, len(r.Samples)*snaps*len(r.Views))
	for _, s := range r.Samples {
		r.eachView(s, func(q, k int, v View, ref, got ViewValue) {
			rows = append(rows, schemas.ViewSnapshot{
				ContractID: l.ContractID, Model: s.Sample.Model, Sample: s.Sample.Sample,
				Oracle: l.Oracle, GraphSetting: l.GraphSetting, Seq: r.Sequences[q].ID,
				AfterCalls: int64(r.Ref[q].Snapshots[k].AfterCalls), Function: v.Name,
				Selector:  "0x" + hex.EncodeToString(v.Selector[:]),
				StatusRef: ref.Status, StatusSample: got.Status,
				ValueRefSHA256: valueDigest(ref), ValueSampleSHA256: valueDigest(got),
				ValueRef: ref.Text, ValueSample: got.Text, Match: viewsMatch(ref, got),
			})
		})
	}
	return rows
}

func valueDigest(v ViewValue) string {
	if v.Status != schemas.StatusSuccess {
		return ""
	}
	return digest(v.Raw)
}

// CoverageRows are the comparison's rows of `coverage`: every state-changing
// function of the original's ABI with the calls it received and the ones
// that succeeded on the original. model is "" where coverage does not depend
// on the model (O2), the extractor for O3.
func (r *Result) CoverageRows(l Labels, model string) []schemas.FunctionCoverage {
	type tally struct{ calls, successes int64 }
	bySelector := map[string]*tally{}
	for q, seq := range r.Sequences {
		for i, c := range seq.Calls {
			if len(c.Data) < 4 {
				continue
			}
			key := string(c.Data[:4])
			t := bySelector[key]
			if t == nil {
				t = &tally{}
				bySelector[key] = t
			}
			t.calls++
			if r.Ref[q].Outcomes[i].Status == schemas.StatusSuccess {
				t.successes++
			}
		}
	}
	var rows []schemas.FunctionCoverage
	for _, m := range r.ABI.Methods {
		if m.IsConstant() {
			continue
		}
		row := schemas.FunctionCoverage{Oracle: l.Oracle, GraphSetting: l.GraphSetting, ContractID: l.ContractID,
			Model: model, Function: m.Name, Selector: "0x" + hex.EncodeToString(m.ID)}
		if t := bySelector[string(m.ID)]; t != nil {
			row.Calls, row.Successes = t.calls, t.successes
		}
		rows = append(rows, row)
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Function != rows[j].Function {
			return rows[i].Function < rows[j].Function
		}
		return rows[i].Selector < rows[j].Selector
	})
	return rows
}
