package deploy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	esapi "github.com/nanmu42/etherscan-api"

	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/solc"
)

// Record is a contract as the corpus holds it.
type Record struct {
	Entry    etherscan.Entry
	Source   *esapi.ContractSource
	Files    *etherscan.SourceFiles
	Creation *Tx    // nil when the history holds no creation transaction
	Txs      []Tx   // transactions to the contract after its creation, in order
	Digest   string // of source and history: part of every fingerprint built on this record
}

// Load reads a contract's source and its first limit transactions through
// the client. A record whose source is unverified or unparsable is still
// returned with the error, so callers can record the reason.
func Load(c *etherscan.Client, e etherscan.Entry, limit int) (*Record, error) {
	// A recorded corpus never waits (no rate limit, no retries): no context to honour.
	src, err := c.Source(context.Background(), e.Address)
	if err != nil {
		return nil, err
	}
	txs, err := c.Transactions(context.Background(), e.Address, limit+1)
	if err != nil {
		return nil, err
	}
	rec := &Record{Entry: e, Source: src}
	rec.splitHistory(txs, limit)
	rec.Digest = digest(src, txs)
	rec.Files, err = etherscan.ParseSource(src)
	return rec, err
}

// splitHistory separates the creation from the calls that follow it.
func (r *Record) splitHistory(txs []esapi.NormalTx, limit int) {
	addr := strings.ToLower(r.Entry.Address)
	for i := range txs {
		tx := txs[i]
		switch {
		case r.Creation == nil && tx.To == "" && strings.EqualFold(tx.ContractAddress, addr):
			creation := newTx(i, tx)
			r.Creation = &creation
		case strings.EqualFold(tx.To, addr) && len(r.Txs) < limit:
			r.Txs = append(r.Txs, newTx(i, tx))
		}
	}
}

func digest(parts ...any) string {
	h := sha256.New()
	for _, p := range parts {
		b, _ := json.Marshal(p)
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// LinkedLibraries are the libraries the recorded standard-JSON input links
// at fixed addresses (settings.libraries), by name.
func (r *Record) LinkedLibraries() map[string]common.Address {
	if r.Files == nil || len(r.Files.StandardJSON) == 0 {
		return nil
	}
	var in struct {
		Settings struct {
			Libraries map[string]map[string]string `json:"libraries"`
		} `json:"settings"`
	}
	if json.Unmarshal(r.Files.StandardJSON, &in) != nil {
		return nil // the compiler reports a bad input
	}
	out := map[string]common.Address{}
	for _, byName := range in.Settings.Libraries {
		for name, addr := range byName {
			if common.IsHexAddress(addr) {
				out[name] = common.HexToAddress(addr)
			}
		}
	}
	return out
}

// CompileInput is the compiler input that reproduces the recorded build;
// files, when given, replace the recorded sources (a regenerated sample).
func (r *Record) CompileInput(files map[string]string) solc.Input {
	in := solc.Input{
		Compiler: r.Source.CompilerVersion,
		Optimize: r.Source.OptimizationUsed == 1,
		Runs:     r.Source.Runs,
	}
	if ev := strings.ToLower(r.Source.EVMVersion); ev != "" && ev != "default" {
		in.EVMVersion = ev
	}
	if files != nil {
		in.Sources = files
		return in
	}
	if r.Files != nil {
		in.Sources = r.Files.Files
		in.StandardJSON = r.Files.StandardJSON
	}
	return in
}

// Name is the contract's name as Etherscan records it.
func (r *Record) Name() string {
	if r.Source != nil && r.Source.ContractName != "" {
		return r.Source.ContractName
	}
	return r.Entry.Name
}

// CreationInput is the recorded creation's input (code and arguments); nil
// when the history holds no creation.
func (r *Record) CreationInput() []byte {
	if r.Creation == nil {
		return nil
	}
	return r.Creation.Input
}

// ConstructorArgs returns the encoded constructor arguments and where they
// came from: Etherscan's ConstructorArguments, else the tail of the creation
// input after the compiled creation code, else none.
func (r *Record) ConstructorArgs(creationCode []byte) ([]byte, string, error) {
	if s := strings.TrimPrefix(strings.TrimSpace(r.Source.ConstructorArguments), "0x"); s != "" {
		b, err := hex.DecodeString(s)
		if err != nil {
			return nil, "", fmt.Errorf("ConstructorArguments is not hex: %w", err)
		}
		return b, "etherscan", nil
	}
	if r.Creation != nil {
		if input := r.Creation.Input; len(input) > len(creationCode) {
			return input[len(creationCode):], "creation_input", nil
		}
	}
	return nil, "none", nil
}
