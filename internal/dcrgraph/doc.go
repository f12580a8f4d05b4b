// Package dcrgraph is SolBehave's DCR graph engine (paper §IV-E1): the graph
// format the extraction stage writes, the core Dynamic Condition Response
// semantics of Hildebrandt and Mukkamala, and the paper's one extension,
// guards that make a relation present only while a Solidity expression
// over the contract's state holds. The sequences stage drives it to
// enumerate legal call orderings (Algorithm 1).
//
// # Graph format
//
// A Graph (JSON schema: schemas/dcr_graph.schema.json) has one Event per
// public state-changing function branch, with a caller Role, a `once` flag
// (the self-exclusion the paper records as a flag), its initial included
// and pending flags, a proposed argument tuple and the wei to send, and
// Relations of four types: condition, response, include, exclude. Parse is
// strict and lists every problem at once; MarshalJSON is canonical.
//
// # Semantics
//
// A Marking holds the executed, included and pending sets. An event is
// enabled when it is included and every condition on it whose source is
// included and whose guard holds has its source executed. Executing e adds
// e to executed, removes it from pending, makes its responses pending,
// excludes its exclusion targets (and e itself when `once`), then includes
// its inclusion targets. A marking is accepting when no included event is
// pending.
//
// All guards of a step are evaluated on the state before the step, as
// Algorithm 1 reads them once before choosing the call: Execute returns a
// new marking without touching the old one, so the caller computes it,
// sends the transaction, and keeps the new marking only if the call did
// not revert.
//
// # Guards
//
// A guard is parsed by a hand-written Pratt parser with Solidity's
// precedence (`||` < `&&` < `== !=` < `< <= > >=` < `+ -` < `* / %` < `**`
// < prefix `! -`; `**` right-associative). It supports integer literals in
// decimal, hex (40 hex digits make an address), scientific notation and
// with ether (wei, gwei, szabo, finney, ether) or time (seconds ... years)
// units; true/false; the relation's named constants; state variables `x`,
// `x()` and `this.x`; single-key mapping lookups `m[key]` with any key
// expression, e.g. `m[msg.sender]`; msg.sender; `address(this).balance` and
// `this.balance`; `now`, `block.timestamp`, `block.number`; address(x),
// payable(x), uintN(x) / intN(x) (truncating) and type(T).min/max.
// Arithmetic is on unbounded signed integers (a guard never wraps).
//
// Values are read through State. Block values need the optional Chain
// extension and address(this) as a value the optional Self extension; a
// State without them makes such guards fail. A guard that does not compile
// or does not evaluate to a bool is reported as a GuardError and its
// relation counts as absent for that step, keeping DCR's permissiveness.
package dcrgraph
