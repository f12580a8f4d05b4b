// Package bytecode is the static stage of the SAEFUZZ-style vulnerability
// fuzzer (saefuzz.txt, "sequence extraction"): it disassembles runtime
// bytecode, builds the control-flow graph, marks the blocks that hold a
// critical instruction, recovers the externally callable functions from
// the dispatcher, and orders them by storage dependency so the fuzzer
// spends its budget on sequences likely to change state.
//
// Disassembly uses go-ethereum's core/vm opcodes and its Osaka instruction
// set for stack arities and for which opcodes are defined. PUSH0..PUSH32
// are decoded with their immediates (a PUSH cut off by the end of the code
// keeps the bytes there are). The CBOR metadata tail solc and Vyper append
// is stripped using its trailing 2-byte length when the map parses with
// known keys (SplitMetadata), so it is never decoded as code.
//
// Blocks start at pc 0, at each JUMPDEST and after each terminator, and end
// at JUMP, JUMPI, STOP, RETURN, REVERT, INVALID, SELFDESTRUCT or an
// undefined opcode. How far jump resolution goes:
//
//   - BuildCFG simulates each block alone on an unknown stack: PUSH, DUP,
//     SWAP, POP and PC exactly, constant folding of ADD SUB MUL DIV MOD EXP
//     AND OR XOR NOT SHL SHR LT GT EQ ISZERO, everything else unknown. A
//     destination pushed anywhere in the block (however it was moved) is
//     resolved; one that comes from another block, such as the return
//     address an internal-function call leaves on the stack, is marked
//     Block.Unresolved.
//   - RecoverFunctions walks paths carrying the same simulated stack from
//     block to block, so a return address pushed by the caller resolves the
//     callee's JUMP on that path. Unknown values carry an identity, and a
//     JUMPI tells the copies of its condition (and of the value it tests
//     with ISZERO) left on the stack which way it went, so a later JUMPI on
//     the same flag follows only the consistent side: without that, solc's
//     try/catch and short-circuit code yields contradictory paths whose
//     stacks are misaligned. The edges found this way are added to the CFG.
//     Jumps still unknown follow the edges given to AddDynamicEdge (the
//     fuzzer's run-time observations); without any the path is cut.
//
// The critical set K is SAEFUZZ's Table 2: arithmetic (ADD SUB MUL DIV MOD
// EXP), environment (TIMESTAMP NUMBER), CALL with value (a CALL whose value
// operand is not the constant 0 where the simulation knows it, every other
// CALL), DELEGATECALL, CALLCODE and SELFDESTRUCT; SSTORE and SLOAD are
// recorded beside it as context for ordering.
//
// Functions are the dispatcher's routes (see Dispatch) that the ABI names.
// From each entry a bounded depth-first search (Limits: paths per function,
// blocks per path, block visits in all) keeps the complete paths, those
// ending in a halt, and counts as critical those through a block of K.
// An edge is taken at most once per path in a given calling context (the
// JUMPDEST-valued constants on the stack), so a loop body is walked once
// per path while an internal function called from two sites is walked at
// each. Because functions with many branches exceed any path budget, a
// second, polynomial search visits each (block, context, stack height)
// state once (Limits.MaxStates); a function's Blocks, K classes and storage
// flags are the union of both, so they do not depend on which paths the
// budget let through. Storage flags count only where a halt that does not
// revert can follow (a reverted SSTORE changes nothing). CandidateOrder
// then sorts SSTORE functions (score 2) before SLOAD ones (1), read-only
// functions last.
//
// Where this differs from the paper: the paper scans PUSH4 operands along
// critical paths; this package reads them from the dispatcher only and
// knows the selector by data flow (CALLDATALOAD(0) >> 224), so constants
// compared inside function bodies (interface ids, say) are never taken for
// routes. The fallback and receive functions have no selector and are not
// returned.
package bytecode
