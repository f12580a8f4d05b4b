// Package chain is solbehave's embedded EVM: an in-memory Ethereum state run by
// go-ethereum's own interpreter, for deploying contracts and replaying or
// fuzzing calls against them without a node.
//
// A Harness holds one state. Every message runs as a whole transaction through
// core.ApplyMessage (intrinsic gas, nonce bump, value transfer, refunds), under
// the mainnet fork rules of the block the message names: a 2018 call runs under
// Byzantium, PUSH0 is invalid before Shanghai, and PREVRANDAO is set from the
// first proof-of-stake block (15,537,394) on. Any address can send (no
// signatures, no nonce or EOA checks), gas is free (price 0, base fee 0) and a
// sender whose balance cannot cover the value is topped up to it first.
//
// Each call reports success or revert, gas used, return data, the decoded revert
// reason, the VM error, its logs and the storage slots it changed (both without
// the parts of reverted inner frames, and only for calls that succeeded), and
// optionally instruction and branch coverage keyed by code hash (init code by
// the hash of the creation input). Logs and storage changes are recorded by a
// thin wrapper around the StateDB that follows the EVM's snapshots, not by a
// tracer. StaticCall runs a call as eth_call does and discards its effects. Coverage is the only thing that installs an
// OnOpcode hook; without it and without caller hooks the EVM runs its
// untraced fast path.
//
// Runaway code is bounded by gas (30,000,000 by default, MaxGas at most), a
// count, so what a call does never depends on how fast the machine runs it.
// A wall-clock limit per call (Options.Timeout, enforced with evm.Cancel) is
// off unless asked for; a call past it is an error wrapped in a
// walltime.Error (a failure of the machine, never a result). A timed out or
// panicking call (in the EVM or in a hook) is rolled back and reported as an
// error; the harness stays usable.
//
// Fork copies the whole state cheaply (StateDB.Copy), so one post-deployment
// state can seed many independent runs. A Harness is not safe for concurrent
// use; forks are independent and may run on different goroutines.
package chain
