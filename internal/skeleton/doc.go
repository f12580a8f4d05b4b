// Package skeleton turns an original contract into the skeleton the
// generators complete (solbehave paper §IV-B), and puts samples back
// together. Everything here is a pure function of source text and its AST
// (internal/solast): positions come from the AST's `src` ranges, and the
// only text scanning is a small lexer that knows strings and comments.
//
// A skeleton is the original file with
//   - every comment stripped (the `// SPDX-License-Identifier:` line is kept:
//     it is a licence tag, not documentation, and 0.6.8+ warns without it);
//   - fresh NatSpec (`@notice`, `@param`, `@return`) above each public and
//     external function it regenerates, written by a model or by a
//     deterministic template built from names and types;
//   - the body of every function of the regenerated contracts replaced by a
//     hole (shown as `{ /* TODO */ }`): the target and, with ScopeChain (the
//     default, the paper's "the function bodies are then deleted"), every
//     contract it inherits from in the file, in source order across the
//     file; signatures, modifiers, state variables, events, structs,
//     modifier definitions (bodies included: the paper does not say),
//     libraries, interfaces and the other contracts stay as they were.
//
// Fill puts bodies (and, for mutants, altered headers) into the holes;
// Stubbed fills every hole with a stub (`{}`, or `{ revert(); }` where an
// empty body cannot return a storage pointer) so the skeleton can be
// compiled on its own. OriginalBody and OriginalHeader cut the original
// parts out of the original text, comment-stripped the same way, so a
// skeleton filled with them is the reference sample.
package skeleton
