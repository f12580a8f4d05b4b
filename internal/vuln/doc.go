// Package vuln is solbehave's vulnerability detector, after SAEFUZZ
// (saefuzz.txt): statically guided evolutionary fuzzing whose five oracles
// each need two pieces of execution evidence before they report.
//
// # Profiles
//
// Config.Profile is ProfileSAEFUZZ (the default: §3 of the paper as
// written), saefuzz with some Extensions named ("saefuzz+tx-edits", for
// per-rule ablation) or ProfileExtended, which adds all of this project's
// Extensions: the
// three seed strategies below (cross-reentry, guard-waits, campaigns), the
// 100 ETH funding (fund), the re-entry confirmation of the reentrancy
// oracle (reentry-confirmation), the static condition of frozen Ether
// (frozen-static), exact stakes drawn from the code's constants
// (stake-constants) and the exact values the code's equalities ask of an
// input (exact-values), and block state the constructor stored
// (deploy-block-state), and a zero-wei send counted as a block-state
// payout (send-calls). Under saefuzz the reentrancy oracle is the paper's: a
// successful positive-value CALL of the target's code forwarding more than
// GasThreshold gas with a read–call–write of one slot around it
// (reentrancySAEFUZZ), and frozen Ether needs only that no outward
// transfer ran. What follows describes the extended profile where the two
// differ.
//
// # Stage 1: sequence extraction
//
// internal/bytecode disassembles the runtime code, builds its CFG, marks the
// blocks holding a critical instruction and recovers the dispatcher's
// functions with their storage effects. Run turns that into candidates: each
// routed ABI function gets a rank (state-changing before read-only, then
// SSTORE functions before SLOAD ones) and a weight for drawing it (under
// saefuzz only the functions on a critical path are candidates, each
// weighing 1; under extended, all-candidates, 1, plus 2 when one of its
// paths is critical, plus 1 when it changes state). Under saefuzz the
// initial seeds are SAEFUZZ §3's prioritised sequences (initialSequences):
// combinations of up to MaxTxs distinct candidates, the Population highest
// accumulated ranks, every call sent by the attacker (the "external
// adversary"); under all-candidates they are drawn by weight, with repeats,
// from one main sender (below). Both sort the initial seeds by accumulated
// rank (sortByScore). A fallback or receive is a candidate too, ranked as a
// writer. Sequences
// keep the rank order; a new sequence also puts payable calls first among
// equal ranks (Ether comes in before code that pays it out runs), which
// crossover and mutation may change.
//
// # Stage 2: seed evolution
//
// A seed is a transaction sequence. Under saefuzz the initial seeds are the
// prioritised sequences above; random ones (all-candidates, the ablations)
// draw 1..MaxTxs candidates by weight, sorted by rank, from one main sender
// (another actor a quarter of the time). Arguments come from internal/fuzz's generator (boundary values,
// constants mined from the bytecode, log-uniform magnitudes; dynamic arrays
// and bytes with a sampled length), with two sequence-aware biases: address
// arguments name a run account 60% of the time (half of those the sender
// itself; the others an actor, the target, or the stub contract at
// StubAddress, which accepts any call, for arguments that wire in a helper
// contract), and an unsigned integer repeats an amount an earlier
// transaction sent or passed 25% of the time. Payable calls carry Ether three times in
// four. Actors: the deployer (privileged), two users, and an attacker whose
// transactions go through the attacker contract (attacker.go), which the
// target sees as msg.sender.
//
// Fitness = w·branch coverage + (1−w)·instruction coverage of the seed
// alone, where branch coverage is JUMPI outcomes reached over twice the
// JUMPIs of the code and instruction coverage program counters executed
// over the instruction positions (metadata excluded); w = BranchWeight, 0.5
// by default (the paper leaves the weighting open). Seeds are ranked; the
// top fraction α is paired at random for crossover (a prefix of one
// parent's transactions before a suffix of the other's, or the argument
// tuples of transactions calling the same function swapped, with even odds;
// offspring that break the rank order, are empty or too long, or do not
// encode are rejected) and the offspring take the parents' places; every
// other seed is mutated with probability p_m (one to three stacked
// mutations: arguments replaced or bits flipped; sender or value changed;
// under extended also (tx-edits) the time gap changed, a transaction
// repeated or replaced by a fresh one, and (repair) each mutation
// lands, half of the time, on a transaction that reverted when the seed
// ran, so evolution repairs invalid test cases; the repaired transaction's
// sender is not steered toward the actors that succeeded before, since that
// steers deposits and withdrawals away from the attacker). Under extended
// (elitism) the best seed survives unchanged. A fixed number of generations;
// unchanged seeds are not executed again, since execution is deterministic.
//
// A test case is one generated transaction; it is valid when it succeeds
// (no revert, no failure). Every generated transaction is ABI-valid by
// construction (offspring that do not encode are rejected), so the ratio
// measures what execution accepts: owner-only functions called by the
// three other actors, calls that refuse contract callers (the attacker),
// array getters with indexes out of range, guessing games and amount
// guards account for most of the rest on SmartBugs Curated.
//
// Three seed strategies beyond SAEFUZZ's (each a Config share, negative: off):
// Campaigns of the initial seeds are an attacker's campaign (every
// state-changing function, payable ones first with Ether, the others twice
// in a random order, all through the attacker, its own address and earlier
// amounts in half the arguments: register, fund, claim, then withdraw);
// an attacker transaction carries, CrossReentry of the time, a call of
// another function for the attacker to make when called back
// (cross-function reentrancy); and GapHints of the mutations of a
// transaction that compared the block's time or number with a value it
// had not reached (the tracer records every LT/GT/SLT/SGT with block state
// on one side) wait exactly long enough for it (the difference plus one,
// in seconds or blocks) instead of a gap from the usual list.
//
// Each transaction runs in its own block after the deployment's (number +
// the blocks the seed gives it, one by default; time + the gap it gives) on a fork of the prepared state: the
// deployment, with the attacker installed and the target's balance raised
// to Config.Fund (Ether of earlier users, so a re-entrant second
// withdrawal has something to take).
//
// # Stage 3: oracles
//
// A go-ethereum tracer (trace.go) keeps a shadow taint stack, memory (32-byte
// chunks) and storage for the target's code; sources are TIMESTAMP, NUMBER,
// CALLDATALOAD/CALLDATACOPY, and one label per overflowing ADD/SUB/MUL site.
// It records storage reads and writes, calls with their gas, value, target
// and input taint, whether they succeeded, whether the target ran again
// inside them and whether it sent Ether meanwhile; reverted frames are
// marked and their storage taint rolled back. The oracles:
//
//   - reentrancy: a successful CALL of the target to the attacker
//     forwarding more than GasThreshold (2,300) gas, a read of a storage
//     slot before it and a write of the same slot after it in the same
//     frame; and the confirmation that the re-entry used the stale state:
//     either the call carried value and the target sent Ether again before
//     it returned, or a re-entrant call into any function of the target
//     (the paying one, another one: cross-function reentrancy, or the body
//     behind a modifier that called out first) changed a slot the calling
//     frame had read before the call, and was not rolled back (a write of
//     the value already there is no change: the tracer reads the slot).
//     The value may be zero in that second case only (a callback).
//   - arithmetic: an ADD, SUB, MUL, DIV or MOD whose result (from the
//     stack operands) leaves the intended integer range (256 bits; a
//     narrower type whose cleanup, AND with 2^k−1 or SIGNEXTEND, truncates
//     it; a division by zero), on operands not both constants, in a frame
//     that did not revert (so a checked-arithmetic panic or a require does
//     not count); and its result, followed by taint, reaches a storage write
//     or the value of a call. Two code-generation idioms are skipped: 0 − 1
//     (solc's mask for storage byte arrays) and a multiplication by a
//     constant power of two (a shift).
//   - block_state: a value derived from TIMESTAMP or NUMBER (stack, memory,
//     storage) is the amount of a successful value call; or a branch on such
//     a value, earlier in the same frame as a successful transfer of Ether
//     (CALL with value, SELFDESTRUCT), decides it: rerun with that JUMPI's
//     outcome inverted (the tracer flips its condition on the live stack),
//     the transfer does not happen or sends another amount. A branch both
//     of whose sides reach the same transfer (bookkeeping on the time) does
//     not count. Verdicts are cached per (branch, transfer) instruction pair,
//     at most 64 reruns per run.
//   - delegatecall: a DELEGATECALL or CALLCODE whose target address or input
//     comes from transaction input, in a successful transaction; under
//     extended (unprivileged-delegate) sent by an account other than the
//     deployer (nothing validated the input away).
//   - frozen_ether: a positive-value transaction into the target succeeded;
//     over every seed of the run, no instruction sending Ether out of the
//     target's context (CALL or CALLCODE with value, SELFDESTRUCT) was
//     reached; and the code holds no instruction that could send it (a
//     CALL whose value is not the constant 0, CALLCODE, DELEGATECALL,
//     SELFDESTRUCT). Without the last condition a payout the fuzzer did not
//     reach (a guessing game, an owner-only sweep) read as frozen Ether: a
//     gap in coverage, not evidence that the Ether can never leave.
//
// Each finding keeps the first triggering seed (JSON), the trace excerpt and
// whether a rerun of the seed on a fresh fork fires the oracle again.
//
// # Ablations (SAEFUZZ Table 5)
//
//   - no-static: stage 1 removed; every ABI function is a candidate, equally
//     weighted, in any order.
//   - random: stage 2 removed; every generation is a fresh set of random
//     sequences (uniform functions, any order), no fitness, crossover or
//     mutation.
//   - opcode: stage 3 replaced; a class fires when the target's code executes
//     one of its opcodes (a CALL; ADD/SUB/MUL/DIV/MOD; TIMESTAMP/NUMBER;
//     DELEGATECALL/CALLCODE), frozen Ether on a successful positive-value
//     transaction alone.
//
// DeployStandalone deploys a contract without history (a labelled benchmark
// file) from StandaloneDeployer with default constructor arguments: zero
// values, except addresses, which name a stub contract accepting any call.
// Addresses the code holds as constants (a log or library deployed before
// it on mainnet) get the same stub, so calls to them do not revert. A
// constructor that reverts on the zero values is deployed with arguments
// the fuzzer chooses (seeded); code above EIP-170's limit is installed with
// the limit lifted (Target.Deployment says so).
package vuln
