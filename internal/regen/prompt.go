package regen

import (
	"strings"

	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/skeleton"
)

// PromptVersion changes whenever the prompts below change: it is part of
// the fingerprints, so new prompts regenerate.
const PromptVersion = "2"

// implementMarker is the hole of the function being asked for.
const implementMarker = "{ /* IMPLEMENT */ }"

func systemPrompt(compiler string) string {
	return "You are an expert Solidity developer. You write the body of one function of an existing smart " +
		"contract at a time. Keep every signature exactly as given, use only what the contract and the rest of " +
		"the file declare, and only language features solc " + versionText(compiler) + " accepts."
}

func versionText(compiler string) string {
	v := strings.TrimPrefix(compiler, "v")
	if i := strings.IndexByte(v, '+'); i >= 0 {
		v = v[:i]
	}
	if v == "" {
		return "(the version of the pragma)"
	}
	return v
}

// generatePrompt shows the skeleton of the chain (every file holding a
// regenerated body) with the bodies written so far and asks for function i.
func generatePrompt(sk *skeleton.Skeleton, bodies map[int]string, i int, compiler string) []llm.Message {
	shown := make(map[int]string, len(bodies)+1)
	for k, v := range bodies {
		shown[k] = v
	}
	shown[i] = implementMarker
	f := sk.Functions[i]
	var head strings.Builder
	for _, l := range f.NatSpec {
		head.WriteString("/// " + l + "\n")
	}
	head.WriteString(sk.Header(i))
	subject, where := "The Solidity file below is", ""
	if len(sk.ChainFiles()) > 1 {
		subject = "The Solidity files below (the deployed contract " + sk.Target + " and the contracts it inherits from, " +
			"each file after a `// File: <name>` line) are"
		where = " in " + f.File
	}
	user := subject + " being rewritten one function at a time; function bodies shown as `" +
		skeleton.Placeholder + "` are not written yet.\n\n```solidity\n" + sk.Show(sk.Fill(shown, nil, "")) + "\n```\n\n" +
		"Write the body of this function of contract " + declaringContract(sk, f) + where + ", marked `" + implementMarker + "` above:\n\n" +
		"```solidity\n" + head.String() + "\n```\n\n" +
		"Reply with the complete function (its signature exactly as given, then its body) in a single " +
		"```solidity code block, and nothing else."
	return []llm.Message{{Role: "system", Content: systemPrompt(compiler)}, {Role: "user", Content: user}}
}

// declaringContract names the contract that declares f (a skeleton of the
// target scope names it too; an empty name means the target).
func declaringContract(sk *skeleton.Skeleton, f skeleton.Function) string {
	if f.Contract != "" {
		return f.Contract
	}
	return sk.Target
}

// repairPrompt asks to fix one compiler error of a sample, shown as source
// (the chain's files of a multi-file sample, each after its `// File:` line).
func repairPrompt(source string, files int, target, compilerError, compiler string) []llm.Message {
	subject := "This Solidity source file does not"
	if files > 1 {
		subject = "These Solidity source files (each after a `// File: <name>` line) do not"
	}
	user := subject + " compile with solc " + versionText(compiler) + ":\n\n```solidity\n" +
		source + "\n```\n\nCompiler error:\n```\n" + strings.TrimSpace(compilerError) + "\n```\n\n" +
		"Fix only this error and change nothing else. Reply with the complete corrected definition of the contract " +
		"the error is in (the deployed contract is " + target + ") in a single ```solidity code block, and nothing else."
	return []llm.Message{{Role: "system", Content: systemPrompt(compiler)}, {Role: "user", Content: user}}
}
