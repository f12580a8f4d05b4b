package democorpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SourceRecord is the result object of Etherscan's getsourcecode, with every
// field Etherscan returns, in Etherscan's order.
type SourceRecord struct {
	SourceCode           string `json:"SourceCode"`
	ABI                  string `json:"ABI"`
	ContractName         string `json:"ContractName"`
	CompilerVersion      string `json:"CompilerVersion"`
	OptimizationUsed     string `json:"OptimizationUsed"`
	Runs                 string `json:"Runs"`
	ConstructorArguments string `json:"ConstructorArguments"`
	EVMVersion           string `json:"EVMVersion"`
	Library              string `json:"Library"`
	LicenseType          string `json:"LicenseType"`
	Proxy                string `json:"Proxy"`
	Implementation       string `json:"Implementation"`
	SwarmSource          string `json:"SwarmSource"`
}

// TxRecord is one entry of Etherscan's txlist: every value a string, fields in
// the order Etherscan returns them.
type TxRecord struct {
	BlockNumber       string `json:"blockNumber"`
	TimeStamp         string `json:"timeStamp"`
	Hash              string `json:"hash"`
	Nonce             string `json:"nonce"`
	BlockHash         string `json:"blockHash"`
	TransactionIndex  string `json:"transactionIndex"`
	From              string `json:"from"`
	To                string `json:"to"`
	Value             string `json:"value"`
	Gas               string `json:"gas"`
	GasPrice          string `json:"gasPrice"`
	IsError           string `json:"isError"`
	TxReceiptStatus   string `json:"txreceipt_status"`
	Input             string `json:"input"`
	ContractAddress   string `json:"contractAddress"`
	CumulativeGasUsed string `json:"cumulativeGasUsed"`
	GasUsed           string `json:"gasUsed"`
	Confirmations     string `json:"confirmations"`
	MethodID          string `json:"methodId"`
	FunctionName      string `json:"functionName"`
}

// IndexEntry is one line of the corpus index.json.
type IndexEntry struct {
	ID                string `json:"id"`
	Address           string `json:"address"`
	Name              string `json:"name"`
	Compiler          string `json:"compiler"`
	TransactionsTotal int    `json:"transactions_total"`
}

// envelope is Etherscan's answer wrapper.
type envelope struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Result  any    `json:"result"`
}

// Recording is one contract's folder: its verified source and its history.
type Recording struct {
	Source SourceRecord
	Txs    []TxRecord
	// Address is the lower-case 0x address the folder is named after.
	Address string
	// Reasons says, per transaction, why it failed on the harness ("" when it
	// succeeded). Etherscan's txlist has no such field, so it is not written.
	Reasons []string
}

// ID is the folder name, <ContractName>_<address>.
func (r *Recording) ID() string { return r.Source.ContractName + "_" + r.Address }

// Reverted counts the history's failed transactions.
func (r *Recording) Reverted() int {
	n := 0
	for _, tx := range r.Txs {
		if tx.IsError == "1" {
			n++
		}
	}
	return n
}

// encodeJSON is the corpus's one JSON layout: one-space indent as the mainnet
// recordings have, no HTML escaping (sources hold < and &), trailing newline.
// encoding/json keeps struct field order, so the bytes are deterministic.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Files renders a recording as the files of its folder, keyed by file name.
func (r *Recording) Files() (map[string][]byte, error) {
	src, err := encodeJSON(envelope{Status: "1", Message: "OK", Result: []SourceRecord{r.Source}})
	if err != nil {
		return nil, err
	}
	txs, err := encodeJSON(envelope{Status: "1", Message: "OK", Result: r.Txs})
	if err != nil {
		return nil, err
	}
	return map[string][]byte{"getsourcecode.json": src, "txlist.json": txs}, nil
}

// WriteCorpus writes index.json and one folder per recording under dir,
// replacing files of the same names and leaving anything else alone.
func WriteCorpus(dir string, recs []*Recording) error {
	index := make([]IndexEntry, 0, len(recs))
	for _, r := range recs {
		if err := writeFolder(filepath.Join(dir, r.ID()), r); err != nil {
			return err
		}
		index = append(index, IndexEntry{ID: r.ID(), Address: r.Address, Name: r.Source.ContractName,
			Compiler: r.Source.CompilerVersion, TransactionsTotal: len(r.Txs)})
	}
	b, err := encodeJSON(index)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.json"), b, 0o644)
}

func writeFolder(dir string, r *Recording) error {
	if !strings.HasPrefix(r.Address, "0x") || len(r.Address) != 42 {
		return fmt.Errorf("democorpus: %s has no address", r.Source.ContractName)
	}
	files, err := r.Files()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
