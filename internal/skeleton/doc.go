// Package skeleton turns an original contract into the skeleton the
// generators complete (solbehave paper §IV-B), and puts samples back
// together. Everything here is a pure function of source text and its AST
// (internal/solast): positions come from the AST's `src` ranges; text
// scanning (comments, definitions, the chain) is internal/soltext's.
//
// A skeleton is the original source with
//   - every comment stripped (the `// SPDX-License-Identifier:` line is kept:
//     it is a licence tag, not documentation, and 0.6.8+ warns without it);
//   - fresh NatSpec (`@notice`, `@param`, `@return`) above each public and
//     external function it regenerates, written by a model or by a
//     deterministic template built from names and types;
//   - the body of every function of the regenerated contracts replaced by a
//     hole (shown as `{ /* TODO */ }`): the target and, with ScopeChain (the
//     default, the paper's "the function bodies are then deleted"), every
//     contract in its linearised inheritance chain, in whichever file of a
//     multi-file (standard-JSON) source it is defined; signatures,
//     modifiers, state variables, events, structs, modifier definitions
//     (bodies included: the paper does not say), libraries, interfaces and
//     the contracts outside the chain stay as they were.
//
// The holes come in generation order: file by file, a base's file before
// the files built on it (each file where its first regenerated contract
// comes in the linearisation read most base first), source order inside a
// file; a flattened single-file source is in source order across the file.
// Function keys are unique across files. Each file declaring a regenerated
// function is written back in place; Show renders those files as the one
// text a model sees (`// File: <name>` before each when there are several).
// Fill puts bodies (and, for mutants, altered headers) into the holes;
// Stubbed fills every hole with a stub (`{}`, or `{ revert(); }` where an
// empty body cannot return a storage pointer) so the skeleton can be
// compiled on its own. Original's Body and Header cut the original parts
// out of the original files, comment-stripped the same way, so a skeleton
// filled with them is the reference sample.
package skeleton
