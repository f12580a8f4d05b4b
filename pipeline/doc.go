// Package pipeline runs stages over work units.
//
// A Stage plans its units (one per contract, or finer), each with a
// fingerprint of everything its output depends on: inputs, parameters and the
// stage's own version. The Runner skips a unit whose stored manifest carries
// the same fingerprint (unless forced), runs the others in parallel, writes
// each unit's rows atomically into the warehouse, and writes the unit's
// manifest last, so a unit's outputs become visible all at once or not at all.
// A unit that fails becomes a row of the `errors` dataset; the run goes on.
package pipeline
