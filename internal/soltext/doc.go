// Package soltext reads Solidity source text that need not compile: a
// model's reply, an imported sample, a crawled candidate sized before any
// compiler runs. It is the project's one lexer: which bytes are code,
// comments or string literals (Classify), comment removal (StripComments,
// CommentEdits, BlankComments), matching braces, the top-level
// definitions with their bases (Definitions, FindContract), the linearised
// inheritance chain across the files of a multi-file source (Chain: C3,
// as solc computes linearizedBaseContracts) and the functions each
// definition declares (Functions; ChainCount is the paper's size count,
// IsNontrivial its non-trivial function, §IV-A c).
//
// Skeleton, regen, compile, crawl, verify, solc (pragma reading) and vuln
// (SmartBugs labels) use it; positions in compiled code come from the AST
// (internal/solast), not from here.
package soltext
