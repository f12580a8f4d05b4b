// Package mutate regenerates function bodies by mutating the original ones:
// the `mutant` generator of solbehave. A mutant is a sample whose
// divergences from the original are known in advance, so it is ground truth
// for how well each behavioural oracle catches a divergence.
//
// # Operators
//
// Every mutation is located on the function's AST (internal/solast `src`
// ranges), never by a regular expression over the text:
//
//	drop_require      delete a require(...) or assert(...) statement
//	relational        negate a comparison: < >=, > <=, == !=
//	boundary          shift a comparison's boundary: < <=, > >=
//	arithmetic        swap an arithmetic operator: + -, * /, % *, += -=, *= /=, ++ --
//	logical           swap && and ||, or drop a `!`
//	constant          shift an integer literal by one (n+1, n-1)
//	delete_statement  delete an expression statement (assignment, call) or an emit
//	sender_origin     swap msg.sender and tx.origin
//	remove_modifier   remove a modifier invocation from the function's header
//	return_value      change a returned value: flip a bool, `r` -> `(r) + 1` for integers
//	unchecked         wrap a statement doing checked arithmetic in `unchecked { }` (solc >= 0.8 only)
//
// Sites that would not compile for sure are not offered: arithmetic on
// compile-time constants, literals that are part of a constant expression or
// an array length, statements that are not directly in a block, operators on
// non-integer operands, `unchecked` inside `unchecked`. A mutant may still
// fail to compile (a literal shifted out of its type's range, say); the
// compile stage records it like any other sample.
//
// # Probability
//
// Each function of the target contract that has a body, the constructor
// excepted, is mutated with probability DefaultRate (0.3), independently:
// with several functions, most samples mix mutated and unmutated bodies, and
// some samples (for a 3-function contract about a third) have none. A
// mutated function receives exactly one mutation: an operator drawn
// uniformly among those with at least one site in the function, then a site
// drawn uniformly among that operator's. Constructors are left alone because
// every oracle deploys the sample with the original's arguments: a mutated
// constructor mostly breaks deployment, which every oracle sees at once and
// which says nothing about their relative power.
//
// Draws come from a PCG stream seeded by (sample seed, function index), so
// a sample is reproducible under its seed and one function's sites do not
// shift another function's draws.
package mutate
