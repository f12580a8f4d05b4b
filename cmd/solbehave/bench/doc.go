// Package bench measures solbehave against the tool a user would otherwise
// pick, on the same real contracts and transactions, in one run on one
// machine.
//
// For every corpus contract it compiles the original once (internal/solc,
// as verify does), deploys it (internal/deploy) and replays the same first
// N recorded transactions on four engines:
//
//   - bare: go-ethereum's core.ApplyMessage on a plain in-memory StateDB, no
//     tracer and nothing recorded: the floor of this design;
//   - ours: internal/chain through deploy.Replay, every Result kept (logs,
//     storage writes, return data); again through the O2 replay engine
//     (internal/replay: digests of logs, storage and return data); and again
//     with coverage on;
//   - hardhat: Hardhat 2's in-process network (EDR), driven by a Node script
//     (hardhat.js): the same creation bytecode and arguments from the
//     deployer with its nonce set, impersonated senders, block numbers and
//     timestamps set, one transaction per block.
//
// Statuses of every engine are compared transaction by transaction; a
// difference is a fidelity finding for one side and is listed in the report.
// It also measures compile throughput (persistent solc worker against one
// Node process per compile), O2 and O3 end to end with k mutant samples
// (generated from the original's skeleton and compiled, then the oracles'
// stages run through the pipeline runner), the calls per second Algorithm 1
// executes while building O3's sequences, O1 differential call pairs per
// second on one core, peak memory, and how every figure grows from the first
// ten contracts to all of them.
//
// Every figure is the median of Config.Runs runs; ratios are computed run by
// run and their median reported. The report goes to <data>/bench/latest.json
// and a table.
package bench
