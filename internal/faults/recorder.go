package faults

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/solc"
)

const calls = 40

// recorder builds one fault contract's history.
type recorder struct {
	name     string
	deployer common.Address
	address  common.Address
	block    uint64
	abi      string
	txs      []map[string]string
}

func (r *recorder) when(i int) (uint64, uint64) {
	n := r.block + uint64(i)*3
	return n, 1_677_000_000 + (n-16_700_000)*12
}

func (r *recorder) tx(i int, from common.Address, to, created, input string, ok bool, gas, used uint64) {
	n, t := r.when(i)
	isErr, status := "0", "1"
	if !ok {
		isErr, status = "1", "0"
	}
	r.txs = append(r.txs, map[string]string{
		"blockNumber": fmt.Sprint(n), "timeStamp": fmt.Sprint(t),
		"hash":  "0x" + hex.EncodeToString(crypto.Keccak256([]byte(fmt.Sprintf("%s/%d", r.name, i)))),
		"nonce": fmt.Sprint(i), "transactionIndex": "0", "from": strings.ToLower(from.Hex()), "to": to,
		"value": "0", "gas": fmt.Sprint(gas), "gasPrice": "20000000000", "isError": isErr, "txreceipt_status": status,
		"input": input, "contractAddress": created, "cumulativeGasUsed": fmt.Sprint(used), "gasUsed": fmt.Sprint(used),
		"confirmations": "1000000",
	})
}

// record compiles src and runs its scripted history on the harness,
// recording what happened.
func (r *recorder) record(ctx context.Context, m *solc.Manager, src string) error {
	out, err := m.Compile(ctx, solc.Input{Compiler: compiler, Sources: map[string]string{r.name + ".sol": src}, Optimize: true, Runs: 200})
	if err != nil {
		return err
	}
	c, err := out.Contract(r.name)
	if err != nil {
		return err
	}
	r.abi = string(c.ABI)
	code, err := c.CreationCode(nil)
	if err != nil {
		return err
	}
	if r.name == "RevertingConstructor" || r.name == "HugeContract" {
		r.staticTxs(code) // on mainnet they deployed; here they cannot
		return nil
	}
	h := chain.New(chain.Options{})
	n, t := r.when(0)
	res, err := h.Deploy(r.deployer, code, nil, chain.Block{Number: n, Time: t})
	if err != nil || !res.Success {
		return fmt.Errorf("deploy on the harness: %v %v", err, res.Err)
	}
	addr := strings.ToLower(r.address.Hex())
	r.tx(0, r.deployer, "", addr, "0x"+hex.EncodeToString(code), true, 3_000_000, res.GasUsed)
	for i := 1; i <= calls; i++ {
		input := r.input(i)
		gas := uint64(120_000)
		n, t := r.when(i)
		res, err := h.Call(r.deployer, r.address, input, nil, chain.Block{Number: n, Time: t})
		if err != nil {
			return err
		}
		// Rerun with the recorded limit, as a sender's wallet would have set it.
		if res.Success {
			gas = res.GasUsed*12/10 + 10_000
		}
		r.tx(i, r.deployer, addr, "", "0x"+hex.EncodeToString(input), res.Success, gas, min(res.GasUsed, gas))
	}
	return r.rerunWithLimits(code)
}

// rerunWithLimits replays the recorded history with its recorded gas limits
// and rewrites each status and gasUsed from that replay, so the record is
// exactly what a chain with those limits produced.
func (r *recorder) rerunWithLimits(code []byte) error {
	h := chain.New(chain.Options{})
	n, t := r.when(0)
	if _, err := h.Deploy(r.deployer, code, nil, chain.Block{Number: n, Time: t}); err != nil {
		return err
	}
	for i := 1; i < len(r.txs); i++ {
		tx := r.txs[i]
		input, _ := hex.DecodeString(strings.TrimPrefix(tx["input"], "0x"))
		var gas uint64
		fmt.Sscan(tx["gas"], &gas)
		n, t := r.when(i)
		to := r.address
		res, err := h.Apply(chain.Msg{From: r.deployer, To: &to, Data: input, Gas: gas, Block: chain.Block{Number: n, Time: t}})
		if err != nil {
			return err
		}
		tx["isError"], tx["txreceipt_status"] = "0", "1"
		if !res.Success {
			tx["isError"], tx["txreceipt_status"] = "1", "0"
		}
		tx["gasUsed"], tx["cumulativeGasUsed"] = fmt.Sprint(res.GasUsed), fmt.Sprint(res.GasUsed)
	}
	return nil
}

// input is the i-th call: set(i), with the contract's own twist.
func (r *recorder) input(i int) []byte {
	set := append(crypto.Keccak256([]byte("set(uint256)"))[:4], common.LeftPadBytes([]byte{byte(i)}, 32)...)
	switch {
	case r.name == "GasEater" && i%5 == 0:
		return crypto.Keccak256([]byte("spin()"))[:4]
	case r.name == "SelfDestructing" && i == calls/2:
		return crypto.Keccak256([]byte("kill()"))[:4]
	}
	return set
}

// staticTxs writes a history of successful calls without running it.
func (r *recorder) staticTxs(code []byte) {
	addr := strings.ToLower(r.address.Hex())
	r.tx(0, r.deployer, "", addr, "0x"+hex.EncodeToString(code), true, 6_000_000, 2_500_000)
	for i := 1; i <= calls; i++ {
		r.tx(i, r.deployer, addr, "", "0x"+hex.EncodeToString(r.input(i)), true, 60_000, 43_500)
	}
}

func (r *recorder) staticHistory(folder, src, compilerVersion string) error {
	r.staticTxs([]byte{0x60, 0x80})
	return r.writeWith(folder, src, compilerVersion)
}

func (r *recorder) unverified(ctx context.Context, m *solc.Manager, folder string) error {
	if err := r.record(ctx, m, fmt.Sprintf(storeSrc, r.name, "")); err != nil {
		return err
	}
	return r.writeWith(folder, "", "")
}

func (r *recorder) write(folder, src string) error { return r.writeWith(folder, src, compiler) }

func (r *recorder) writeWith(folder, src, compilerVersion string) error {
	abi := r.abi
	if src == "" {
		abi = "Contract source code not verified"
	}
	source := map[string]any{"status": "1", "message": "OK", "result": []map[string]string{{
		"SourceCode": src, "ABI": abi, "ContractName": r.name, "CompilerVersion": compilerVersion,
		"OptimizationUsed": "1", "Runs": "200", "ConstructorArguments": "", "EVMVersion": "Default",
		"Library": "", "LicenseType": "MIT", "Proxy": "0", "Implementation": "", "SwarmSource": ""}}}
	if err := os.WriteFile(filepath.Join(folder, "getsourcecode.json"), encodeJSON(source), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(folder, "txlist.json"), encodeJSON(map[string]any{"status": "1", "message": "OK", "result": r.txs}), 0o644)
}

// raw writes broken answers as they are.
func (r *recorder) raw(folder, source, txlist string) error {
	if err := os.WriteFile(filepath.Join(folder, "getsourcecode.json"), []byte(source), 0o644); err != nil {
		return err
	}
	if txlist == "" {
		r.staticTxs([]byte{0x60, 0x80})
		return os.WriteFile(filepath.Join(folder, "txlist.json"), encodeJSON(map[string]any{"status": "1", "message": "OK", "result": r.txs}), 0o644)
	}
	return os.WriteFile(filepath.Join(folder, "txlist.json"), []byte(txlist), 0o644)
}
