// Package callseq is SolBehave's validated sequence generator, Algorithm 1
// of the solbehave paper (§IV-E2): it drives a contract's DCR graph
// (internal/dcrgraph) against a deployed original (internal/deploy) and keeps the
// calls the original accepts, in the order the graph allows.
//
// # The algorithm
//
// Generate collects calls until Config.Budget (T) of them succeeded, one
// sequence at a time, each from a fresh fork of the post-deployment state
// and the graph's initial marking. Before each step it reads the guard
// variables from the contract (internal/guardstate, getters first), takes
// the events the marking allows under the relations whose guards hold,
// drops the ownership-transferring ones, and SELECTs one: an obligation
// (pending event) with probability β, else a prerequisite (an event an
// included event waits on through a condition whose guard holds) with
// probability α, else an upper-confidence-bound choice over the attempts
// and successes of each event on this contract (untried events first, then
// the highest success rate plus Bonus·sqrt(ln N / n)). The pools of the two
// priorities are ranked by the same rule. The chosen event is sent with the
// arguments and value the graph proposes; block number and time advance
// before every step. A success is appended to the sequence and updates the
// marking; a revert is discarded and leaves the marking as it was. At the
// end of each sequence the ownership-transferring events the marking allows
// are sent, and their successes kept too.
//
// # Profiles
//
// Config.Parts holds the settings in which our extensions depart from the
// paper; ProfileParts names two settings of them:
//
//   - paper (the default): every call is sent from the address that
//     deployed the contract (§IV-E2 d), `any` events included; a proposal
//     whose arguments do not encode is replaced by the arguments of a
//     recorded call of the same function (the paper's "arguments decoded
//     from historical transactions"); a call that reverts is discarded with
//     no retry and no argument search (§IV-E2 e). The paper says nothing of
//     time: the first call runs in the block after the contract's creation
//     and every call advances one block and 12 seconds.
//   - extended: the `any` events come from Users accounts, the most frequent
//     non-deployer senders of the recorded history (its real users: the
//     co-owners of a multisig, the holders of a token), padded with fixed
//     synthetic accounts; a reverted step retries up to HistoryTries
//     distinct argument tuples of recorded calls to the same function
//     (successful ones first), then up to SearchTries tuples from the O1
//     value generators (internal/fuzz, over a dictionary of the contract's
//     actors, constructor arguments, history and source literals), at the
//     same state, before the step is discarded; after FallbackPatience
//     fruitless steps in a row for an event, its retries stop (they would
//     only spend the attempt bound). Blocks advance by a random gap whose
//     mean is the history's own pace (blocks per transaction, seconds per
//     block), so a sequence lives through the same time windows (sale
//     openings, lock periods) real users did.
//
// Every retry is an attempt and args_source says which tuple (proposed,
// history, search) was kept. Events of a `fail` branch get no other tuple:
// their proposed call is meant to be refused, and that refusal is what the
// negative replay (O4) checks. Guards are evaluated per role: the owner
// events see msg.sender = deployer, the `any` events the account drawn for
// the step, so a guard such as `stakedBalance[msg.sender] > 0` is read for
// the account that would call. No balance is set: the harness funds each
// call with the value it sends, in generation and in replay alike, so a
// replay is exact. All choices derive from Config.Seed.
//
// # Bounds and records, in every profile
//
//   - Algorithm 1 as printed never stops when every call reverts: MaxAttempts
//     (default AttemptFactor·T, high enough that no demo or mainnet contract
//     that keeps calls stops short of T) bounds the tries per contract, and
//     the contracts that hit it are reported (sequence_end `attempts`; the sequence_contracts view).
//     A run also stops when a fresh sequence allows no event at all.
//     Optionally (both off by default, as in the paper) Stall ends a
//     sequence after that many discarded steps in a row and MaxLength after
//     that many kept calls, so a stuck state gives way to a fresh deployment.
//   - Every try is recorded (Result.Attempts, the `sequence_calls` rows)
//     with its position, so Replayable rebuilds both the kept sequences
//     (O3) and, with every refused call as a probe at the place it was
//     tried, the negative sequences (O4).
//
// # Ownership-transferring events
//
// OwnershipFunctions finds them in the AST: the address state variables an
// owner check compares msg.sender with (directly, through a getter such as
// owner(), with msg.sender or _msgSender()), and the public functions that
// write one of them, directly or through internal calls; renounceOwnership
// and transferOwnership count whenever the ABI has them.
package callseq
