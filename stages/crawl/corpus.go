package crawl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	esapi "github.com/nanmu42/etherscan-api"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/internal/redact"
	"github.com/solbehave/solbehave/internal/soltext"
	"github.com/solbehave/solbehave/pipeline"
)

// writeCorpus stores a fetched contract in the corpus layout (Etherscan's
// own envelopes), so verify reads live and recorded contracts alike. folder
// comes from etherscan.FolderName: one safe path element.
func (s *Stage) writeCorpus(env *pipeline.Env, folder string, src *esapi.ContractSource, txs []esapi.NormalTx) error {
	root := s.OutCorpus
	if root == "" {
		root = filepath.Join(env.Data, "corpus", "crawled")
	}
	if !filepath.IsLocal(folder) || filepath.Base(folder) != folder {
		return failure.New(failure.Input, false, fmt.Errorf("corpus folder %q would leave %s", folder, root))
	}
	dir := filepath.Join(root, folder)
	if err := writeEnvelope(filepath.Join(dir, "getsourcecode.json"), []esapi.ContractSource{*src}); err != nil {
		return err
	}
	return writeEnvelope(filepath.Join(dir, "txlist.json"), txs)
}

func writeEnvelope(path string, result any) error {
	b, err := json.MarshalIndent(map[string]any{"status": "1", "message": "OK", "result": result}, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, redact.Bytes(b), 0o644) // a key the server echoed into the source
}

// dirDigest digests a corpus folder's records, so a changed record reruns
// its unit. Records are read as regular files within the bound a recorded
// answer has, and a cancelled ctx stops the digest between files.
func dirDigest(ctx context.Context, dir string) (string, error) {
	names, err := inputfile.Glob(dir, "*.json")
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		h.Write([]byte(filepath.Base(n)))
		if err := inputfile.Copy(h, n, etherscan.MaxRecorded); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// creationCode is the input of the transaction that created address, if recorded.
func creationCode(txs []esapi.NormalTx, address string) []byte {
	for _, tx := range txs {
		if tx.To == "" && strings.EqualFold(tx.ContractAddress, address) {
			b, _ := hex.DecodeString(strings.TrimPrefix(tx.Input, "0x"))
			return b
		}
	}
	return nil
}

// callsTo counts the transactions sent to address (its creation excluded).
func callsTo(txs []esapi.NormalTx, address string) int {
	n := 0
	for _, tx := range txs {
		if strings.EqualFold(tx.To, address) {
			n++
		}
	}
	return n
}

// stateChangingABI counts a recorded ABI's state-changing methods (neither
// view nor pure), the rule verify applies to the compiled ABI. -1 when the
// ABI cannot be read (Etherscan answers a sentence for an unverified
// contract).
func stateChangingABI(recorded string) int64 {
	parsed, err := abi.JSON(strings.NewReader(recorded))
	if err != nil {
		return -1
	}
	var n int64
	for _, m := range parsed.Methods {
		if !m.IsConstant() {
			n++
		}
	}
	return n
}

// chainSize is the size Figure 2 plots at the crawled stage, the count
// verify applies to the compiled chain, read from the recorded source by
// the lexer across every file (no compiler: a crawl sizes thousands of
// candidates). -1 when the source cannot be read or its target not found
// or linearised.
func chainSize(src *esapi.ContractSource) int64 {
	files, err := etherscan.ParseSource(src)
	if err != nil {
		return -1
	}
	n, err := soltext.ChainCount(files.Files, src.ContractName)
	if err != nil {
		return -1
	}
	return int64(n)
}
