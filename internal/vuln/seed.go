package vuln

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/fuzz"
)

// candidate is one function a sequence may call, with what stage 1 learnt.
type candidate struct {
	method   *abi.Method // nil: the fallback (call data not naming a function)
	name     string      // signature, or "fallback"
	payable  bool
	readOnly bool
	// rank orders a sequence (see rank): sequences never call a higher rank
	// after a lower one, the storage-dependency order of stage 1; equal
	// ranks come in any order.
	rank   int
	weight int // how often initial sequences pick it (critical paths weigh more)
}

// primitive reports whether every input is a one-word type, so the
// arguments can live as a fuzz.Tuple.
func (c *candidate) primitive() bool {
	if c.method == nil {
		return true
	}
	for _, in := range c.method.Inputs {
		if !fuzz.Primitive(in.Type) {
			return false
		}
	}
	return true
}

// Tx is one transaction of a seed.
type Tx struct {
	fn      *candidate
	words   fuzz.Tuple // arguments of a function with primitive inputs
	values  []any      // arguments otherwise, as go-ethereum's abi packs them
	raw     []byte     // fallback: the call data sent
	Sender  int        // index into the engine's actors
	Value   *big.Int   // msg.value (wei)
	Advance uint64     // seconds since the previous transaction (or the deployment)
	Blocks  uint64     // blocks since the previous transaction (0: one)
	// Reenter is the call the attacker makes when the target calls it back
	// during this transaction (attacker transactions only); nil: the
	// transaction's own call again. Another function of the target here
	// is cross-function reentrancy.
	Reenter *Tx
}

// Seed is a transaction sequence: one test case of the evolution.
type Seed struct {
	Txs []Tx

	fitness  float64
	executed bool
	failed   []int       // indices of the transactions that reverted when it ran
	hints    []gapHint   // waits that would pass the time and block guards it met
	exact    []exactHint // input values its equality guards asked for (extension exact-values)
}

func (s *Seed) clone() *Seed {
	c := &Seed{Txs: make([]Tx, len(s.Txs))}
	for i, tx := range s.Txs {
		c.Txs[i] = tx.clone()
	}
	return c
}

func (tx Tx) clone() Tx {
	c := tx
	c.words = tx.words.Clone()
	c.values = append([]any(nil), tx.values...)
	c.raw = append([]byte(nil), tx.raw...)
	if tx.Value != nil {
		c.Value = new(big.Int).Set(tx.Value)
	}
	if tx.Reenter != nil {
		r := tx.Reenter.clone()
		c.Reenter = &r
	}
	return c
}

// CallData encodes the transaction's input.
func (tx Tx) CallData() ([]byte, error) {
	m := tx.fn.method
	switch {
	case m == nil:
		return tx.raw, nil
	case tx.values == nil:
		return tx.words.CallData(*m), nil
	}
	packed, err := m.Inputs.Pack(tx.values...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Sig, err)
	}
	return append(append([]byte(nil), m.ID...), packed...), nil
}

// txJSON is how a transaction appears in the vuln_findings dataset.
type txJSON struct {
	Function string  `json:"function"`
	Args     []any   `json:"args"`
	Data     string  `json:"data,omitempty"` // fallback call data
	Sender   string  `json:"sender"`
	Value    string  `json:"value"`
	Advance  uint64  `json:"advance_s"`
	Blocks   uint64  `json:"advance_blocks"`
	Input    string  `json:"input"`             // the encoded call data
	Reenter  *txJSON `json:"reenter,omitempty"` // what the attacker calls when called back
}

// seedJSON renders a seed for people and for replays.
func seedJSON(s *Seed, actors []actor) string {
	out := make([]txJSON, 0, len(s.Txs))
	for _, tx := range s.Txs {
		j := txToJSON(tx, actors)
		if tx.Reenter != nil {
			r := txToJSON(*tx.Reenter, actors)
			r.Sender, r.Value = "attacker (re-entering)", "0"
			j.Reenter = &r
		}
		out = append(out, j)
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// txToJSON renders one transaction.
func txToJSON(tx Tx, actors []actor) txJSON {
	j := txJSON{Function: tx.fn.name, Args: []any{}, Sender: actors[tx.Sender].name, Value: "0", Advance: tx.Advance, Blocks: max(tx.Blocks, 1)}
	if tx.Value != nil {
		j.Value = tx.Value.String()
	}
	switch {
	case tx.fn.method == nil:
		j.Data = "0x" + hex.EncodeToString(tx.raw)
	case tx.values == nil:
		for _, a := range tx.words.Strings(tx.fn.method.Inputs) {
			j.Args = append(j.Args, a)
		}
	default:
		for _, v := range tx.values {
			j.Args = append(j.Args, plain(reflect.ValueOf(v)))
		}
	}
	if data, err := tx.CallData(); err == nil {
		j.Input = "0x" + hex.EncodeToString(data)
	}
	return j
}

// plain turns an abi Go value into JSON-friendly strings and lists:
// integers in decimal, addresses checksummed, bytes in 0x-hex.
func plain(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	switch x := v.Interface().(type) {
	case *big.Int:
		return x.String()
	case common.Address:
		return x.Hex()
	case []byte:
		return "0x" + hex.EncodeToString(x)
	case string:
		return x
	case bool:
		return x
	}
	switch v.Kind() {
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprint(v.Uint())
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fmt.Sprint(v.Int())
	case reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, v.Len())
			reflect.Copy(reflect.ValueOf(b), v)
			return "0x" + hex.EncodeToString(b)
		}
		fallthrough
	case reflect.Slice:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = plain(v.Index(i))
		}
		return out
	case reflect.Struct:
		out := make([]any, v.NumField())
		for i := range out {
			out[i] = plain(v.Field(i))
		}
		return out
	}
	return fmt.Sprint(v.Interface())
}
