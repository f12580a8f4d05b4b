// Package solast reads the AST that solc emits, in either of its two forms,
// into one normalized tree so later stages need not care which compiler
// version produced it.
//
// The compact form (solc >= 0.4.12, the only form from 0.8.0) names the node
// type in `nodeType` and keeps child nodes in named properties ("body",
// "parameters", "nodes", ...). The legacy form (`legacyAST`, the only form of
// 0.4.9 through the solc-js wrapper) names the type in `name`, keeps scalar
// properties under `attributes` and child nodes in an ordered `children`
// list. Parse turns both into *Node; for the legacy form it also assigns the
// compact property names (Node.Field) to the children the helpers need, so
// Contracts, Functions, StateVariables, ModifierDefinitions and Events work
// the same on both forms.
//
// The legacy AST of 0.4.9/0.4.10 gives variable declarations only a name and
// a type; ParseWithSource reads their visibility, `constant` and `indexed`
// back from the source text. Source ranges (Src) are byte offsets into the
// source text, as solc reports them.
package solast
