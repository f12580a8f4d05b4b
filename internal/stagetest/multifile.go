package stagetest

import (
	"embed"
	"encoding/json"
	"io/fs"
	"strings"

	"github.com/solbehave/solbehave/internal/solc"
)

// The multi-file fixture: CapToken (src/CapToken.sol) inherits BaseToken
// (lib/fx/token/BaseToken.sol), which inherits Owned
// (lib/fx/access/Owned.sol, shaped like OpenZeppelin's Ownable), which
// inherits Context (lib/fx/utils/Context.sol); it implements IMintable (src/IMintable.sol)
// and calls the library FxMath (lib/fx/utils/FxMath.sol); BaseToken.sol
// also defines TokenEscrow, which nothing inherits. The target imports its
// bases through the remapping @fx/=lib/fx/, so only the recorded
// standard-JSON settings compile it.
//
//go:embed testdata/multifile
var multiFileFS embed.FS

const multiFileRoot = "testdata/multifile"

// Names of the fixture's parts.
const (
	MultiFileTarget   = "CapToken"
	MultiFileFile     = "src/CapToken.sol"
	MultiFileBase     = "lib/fx/token/BaseToken.sol"
	MultiFileOwned    = "lib/fx/access/Owned.sol"
	MultiFileContext  = "lib/fx/utils/Context.sol"
	MultiFileCompiler = "v0.8.19+commit.7dd6d404"
)

// MultiFileSources are the fixture's files, by their standard-JSON names.
func MultiFileSources() map[string]string {
	files := map[string]string{}
	err := fs.WalkDir(multiFileFS, multiFileRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := multiFileFS.ReadFile(p)
		if err != nil {
			return err
		}
		files[strings.TrimPrefix(p, multiFileRoot+"/")] = string(b)
		return nil
	})
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	return files
}

// MultiFileStandardJSON is the fixture as Etherscan's SourceCode holds a
// standard-JSON source: the input wrapped in an extra pair of braces, with
// remappings, the optimizer's runs and the EVM version.
func MultiFileStandardJSON() string {
	return "{" + string(multiFileJSON(MultiFileSources())) + "}"
}

// MultiFileInput compiles files (the fixture's, or a variant of them) with
// the fixture's recorded settings.
func MultiFileInput(files map[string]string) solc.Input {
	return solc.Input{Compiler: MultiFileCompiler, StandardJSON: multiFileJSON(files)}
}

func multiFileJSON(files map[string]string) []byte {
	sources := map[string]map[string]string{}
	for name, text := range files {
		sources[name] = map[string]string{"content": text}
	}
	in := map[string]any{
		"language": "Solidity",
		"sources":  sources,
		"settings": map[string]any{
			"remappings":      []string{"@fx/=lib/fx/"},
			"optimizer":       map[string]any{"enabled": true, "runs": 300},
			"evmVersion":      "paris",
			"outputSelection": map[string]any{"*": map[string]any{"*": []string{"abi", "evm.bytecode", "evm.deployedBytecode"}}},
		},
	}
	b, err := json.Marshal(in)
	if err != nil {
		panic(err)
	}
	return b
}
