// Package fuzz is solbehave's in-process, coverage-guided differential
// fuzzer (oracle O1, solbehave paper §IV-C) and the ABI value generators
// other engines reuse.
//
// # Values
//
// A Generator (NewGenerator(seed, dictionary)) produces ABI-typed values
// reproducibly: Word for one primitive type, Tuple for a function's
// primitive inputs, Value/Values/CallData for any Supported type (strings,
// bytes, arrays and tuples included) as the Go values go-ethereum's abi
// package packs, Wei for msg.value, Mutate and Splice for corpus inputs. A
// Dictionary holds the constants it prefers: NewDictionaryFrom mines PUSH
// operands of bytecode, Solidity literals (with units), ABI-encoded words
// (constructor arguments), stored values and known actor addresses.
// Generator.AddHint adds values seen at run time (comparison operands).
//
// A Tuple is the arguments of a function whose inputs are all Primitive
// (bool, address, uintN, intN, bytesN): one canonical 32-byte word per
// argument, so call data is the selector followed by the words, and the hot
// loop never runs an ABI encoder. Canonical maps any word into a type's
// domain; every generated or mutated value passes through it.
//
// # Differential fuzzing
//
// Differential(ctx, ref, sample, method, Config) fuzzes one Fuzzable
// function on two deployments of the same contract: both post-deployment
// states are forked every Config.SeqLen calls (state accumulates over one
// sequence of calls to the function, never interleaved with another
// function), and each call goes to both with the same arguments, msg.value,
// sender and block. The deployments must agree on status (success, revert,
// harness fault) and, when both succeed, on return data. The first
// disagreement that a replay from the fresh deployments reproduces is
// shrunk (Counterexample: the shortest sequence, then the smallest
// arguments, values and block delay; kept only if its own replay still
// disagrees, else fuzzing goes on) and the Report says why the campaign
// stopped (budget, gas_budget, counterexample).
//
// Guidance: a corpus keeps each call that reached a new program counter or
// JUMPI outcome on either deployment. Coverage comes from an OnOpcode hook
// (tracker) that sets bits in campaign-wide sets directly, rather than from
// chain.Options{Coverage: true}, whose per-call Result.Coverage the fuzzer
// would copy and merge (see tracker). The hook also records the operands of
// comparisons as generator hints.
//
// Determinism: a campaign's choices all come from Config.Seed; coverage and
// shrinking are deterministic, and every bound is counted, never timed
// (calls, gas per call, the gas budget, shrink replays), so a Report depends
// on the inputs and the seed only. Config.Timeout guards the machine: past
// it Differential returns a walltime.Error, not a Report.
package fuzz
