// Package dcrextract extracts the DCR graph of a contract's intended
// lifecycle (solbehave paper §IV-E1), in the format of internal/dcrgraph, two
// ways.
//
// # Static (Static; ours, deterministic, no model)
//
// Rules over the original's AST (internal/solast). Each public or external
// state-changing function (fallback and receive included) is analysed on its
// success path with its modifiers and the internal functions it calls
// inlined, parameters and locals bound to what they stand for (so `l.released`
// with `Lock storage l = locks[id]` is the field `locks.released`). What it
// requires (require/assert, the `if (bad) revert/return` and `if (ok) {...
// return true;} return false;` shapes) is split into conjuncts, each either
// a role check (msg.sender against an address state variable), a time check
// (reads now, block.timestamp or block.number: met by waiting, not by a
// call), a disjunction, a boolean flag, or a comparison over state; what it
// writes is classified (set, increase, decrease, clear, true, false).
//
// Events: `<f>Success`, and `<f>Fail` when f can revert or refuse; role
// owner when a check compares msg.sender with the variable the constructor
// set to msg.sender, or to a constructor parameter that the recorded
// deployment filled with the deployer's address (OpenZeppelin 5's
// `constructor(address initialOwner) Ownable(initialOwner)`: the
// deployment, not the parameter's type, says whose it is, so an owner
// deployed as another account stays any); `once` when f checks a flag
// before writing anything and flips it itself. The whole linearised chain is read, in whichever file of
// a multi-file source each base is: a function returning msg.sender
// (Context's _msgSender()) is msg.sender and a one-line getter (owner()) is
// its variable, and what the constructors write is followed through the
// internal functions they call, their locals and the arguments heirs pass
// to their bases' constructors (OpenZeppelin's Ownable in its 3, 4 and 5
// shapes). Relations:
//   - condition A ->• B (state-condition): one of B's comparisons reads state
//     that is zero after deployment (no initializer, no constructor write)
//     and that A changes in the direction the comparison needs, A not
//     checking that state itself before its write; the contract's balance
//     counts as state that payable functions raise;
//   - for a boolean flag B needs (key == want): when the flag is a plain
//     variable that some functions set and others clear, a switch: include
//     from the setters, exclude from the clearers, B initially excluded when
//     the flag starts wrong (switch-include / switch-exclude); otherwise, when
//     it starts wrong, a condition from the setters (flag-condition); when it
//     starts right and nothing sets it back, an exclusion from whoever flips
//     it (flag-exclude); only writes on every success path count;
//   - response A •-> B (balance-response) from a payable A to a B that sends
//     address(this).balance out, guarded by `address(this).balance > 0`.
//
// A clause B establishes itself before checking it (submitTransaction
// confirms, then checks the confirmation) is not a precondition. A
// condition is guarded by "B's precondition does not hold yet",
// !(clause && ...), rendered in the guard language with B's proposed
// arguments and the named constants; clauses the language cannot say
// (nested mappings, struct members, calls) are left out, and a condition
// with none is unguarded. DCR cannot say "after A1 or A2", and the guard is
// what keeps two alternative sources of a condition from over-constraining:
// once either established the state, B no longer waits.
//
// Arguments (per event, with the source of each, FromHistory / FromSource /
// FromDefault): the most frequent successful tuple of the contract's
// history (ties: the earliest; for a fail event the most frequent failed
// one), else a value that satisfies a comparison of the parameter with a
// constant in the source (`x > 0` gives 1, `addr != address(0)` the
// deployer), else the type's zero value; msg.value likewise.
//
// # LLM (LLM; the paper's)
//
// The model gets the contract's source, ABI and the JSON schema
// (prompt.md, schemas/dcr_graph.schema.json) and answers a graph; the reply
// must parse (dcr.Parse) and name state-changing functions of the ABI with
// their argument types. An invalid reply is answered once with its problems;
// a second invalid reply is rejected. Every request is an Attempt, for the
// `llm_calls` dataset (purpose "dcr").
//
// EventKey names events independently of the ids an extractor chose
// (`<function>.<branch>`), which is how annotations and the Table III view
// match relations across extractors.
package dcrextract
