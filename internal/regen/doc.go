// Package regen holds solbehave's generators: the ways a contract's function
// bodies are regenerated from its skeleton (solbehave paper §IV-B), and the
// parsing of model replies.
//
// A Generator turns a Task (a skeleton, the original it came from, a sample
// index and its seed) into a Result: the sample's files, what was mutated,
// how many bodies were generated or failed, and the LLM calls made.
// New builds one from its command-line spelling, which is also the `model`
// column of every dataset:
//
//	openai:<model>  stub-and-complete on an OpenAI-compatible endpoint: one
//	                request per function, in source order, each showing the
//	                skeleton with the bodies generated so far
//	mutant          the original bodies with mutation operators applied (internal/mutate)
//	reference       the original bodies: every oracle must find it equivalent
//	import:<dir>    samples written elsewhere: <dir>/<contract_id>/<k>.sol
//
// Replies and imported files are parsed leniently (ExtractCode, ExtractBody,
// Merge): code fences or none, prose around the code, a whole function or
// only its body, a whole file or only the target contract's definition
// (which then replaces the original's definition, the rest of the file left
// as it was). Repair asks the same model to fix a sample's first compiler
// error, for the compile stage.
package regen
