// Package replay is the comparison engine of the replay oracles (solbehave
// paper §IV-D to §IV-F): it issues the same calls, in the same order and from
// the same senders, to the original C* and to every compiling sample Ĉ, each
// deployment in its own state forked from its post-deployment state, and
// compares their outcomes call by call.
//
// The engine does not care where the calls come from: O2 hands it the
// contract's recorded history (History), O3 DCR-guided sequences, O4 the calls
// O3 pruned, marked as probes (run and observed, their effects then
// discarded). Every Sequence starts from a fresh fork of the post-deployment
// state. The original's outcomes are computed once per sequence and shared by
// every sample.
//
// Per call it records the receipt a user would see (status, the divergence
// criterion; gas used; events with their topics) plus what hosting the EVM
// adds (return data, storage slots written), and every Options.SnapshotEvery
// calls it reads every zero-argument view function of the original's ABI on
// both deployments. Result turns the comparison into rows of the
// `replay_calls`, `view_snapshots` and `coverage` datasets, labelled with the
// oracle that produced the calls. A stage uses it as o2 does:
//
//	res, err := replay.Compare(ctx, orig, samples, seqs, replay.Options{SnapshotEvery: 50})
//	labels := replay.Labels{ContractID: id, Oracle: schemas.OracleO3, GraphSetting: "matched"}
//	pipeline.Add(out, schemas.ReplayCalls, res.CallRows(labels))
//	pipeline.Add(out, schemas.ViewSnapshots, res.ViewRows(labels))
//	pipeline.Add(out, schemas.Coverage, res.CoverageRows(labels, extractor))
//
// Several Compare results of one unit (one per model's sequences, say) are
// added as several parts of the same dataset.
//
// The engine records facts, not verdicts: whether a sample diverges, and
// which secondary axes flag a call, is defined once, by the SQL views
// replay_sample_summary and sample_verdicts.
package replay
