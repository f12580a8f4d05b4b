// Package synth writes a synthetic demo warehouse: rows for every dataset
// registered in package schemas, over one shared set of contracts, models,
// samples and oracles, so that the views' joins meet and every table and
// figure built on them has something to show. It is test input for the
// analysis side (views, notebooks, report, publish), which must not wait
// minutes for a real pipeline run; values are drawn from a seed.
//
// Rows are shaped by reflection on each dataset's row type and by its doc: a
// text column whose description lists backtick-quoted values (`O2`, `O3`)
// takes one of them, so a dataset added later gets plausible rows without a
// change here. The numbers mean nothing.
package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// Contracts are the synthetic contract ids (the demo corpus's names).
var Contracts = []string{
	"Vault_0x1000000000000000000000000000000000000001",
	"GiftToken_0x1000000000000000000000000000000000000002",
	"MultiSigWallet_0x1000000000000000000000000000000000000003",
	"EtherLocker_0x1000000000000000000000000000000000000004",
}

// Models are the synthetic generators.
var Models = []string{"reference", "mutant", "openai:qwen3-coder-30b"}

// maxRows bounds one dataset; inner key columns are dropped past it.
const maxRows = 2000

// Write fills the warehouse at root: one part per contract per dataset.
func Write(root string, seed int64) error {
	w := warehouse.New(root)
	for _, d := range schemas.All() {
		if err := writeDataset(w, d, rand.New(rand.NewSource(seed+int64(len(d.Name))*7919))); err != nil {
			return fmt.Errorf("synth: %s: %w", d.Name, err)
		}
	}
	return nil
}

func writeDataset(w *warehouse.Warehouse, d schemas.Dataset, rng *rand.Rand) error {
	typ := reflect.TypeOf(d.Row)
	cols := columnsOf(typ, d.Doc)
	keys := keyDomains(cols)
	byContract := map[string][]reflect.Value{}
	for _, combo := range product(keys) {
		row := reflect.New(typ).Elem()
		for _, c := range cols {
			v, ok := combo[c.name]
			if !ok {
				v = c.value(rng, combo)
			}
			row.Field(c.index).Set(reflect.ValueOf(v).Convert(c.typ))
		}
		id, _ := combo["contract_id"].(string)
		byContract[id] = append(byContract[id], row)
	}
	for id, rows := range byContract {
		var parts []warehouse.Partition
		for _, p := range d.Partitions {
			parts = append(parts, warehouse.Partition{Key: p, Value: warehouse.Sanitize(id)})
		}
		if err := writeRows(w.Path(d.Name, parts, "synth"), d.Row, rows); err != nil {
			return err
		}
	}
	return nil
}

func writeRows(path string, row any, rows []reflect.Value) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	pw := parquet.NewWriter(f, parquet.SchemaOf(row))
	for _, r := range rows {
		if err := pw.Write(r.Interface()); err != nil {
			f.Close()
			return err
		}
	}
	if err := pw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// column is one field of a row type, with the values its doc lists.
type column struct {
	name    string
	index   int
	typ     reflect.Type
	choices []string
	json    bool
}

func columnsOf(typ reflect.Type, doc string) []column {
	descs := descriptions(doc)
	names := map[string]bool{}
	for name := range descs {
		names[name] = true
	}
	var cols []column
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		if name == "" || name == "-" {
			continue
		}
		desc := descs[name]
		cols = append(cols, column{name: name, index: i, typ: f.Type,
			choices: choices(desc, names), json: strings.Contains(desc, "JSON")})
	}
	return cols
}

var docRowRe = regexp.MustCompile("(?m)^\\| `([^`]+)` \\| [^|]+ \\| (.*)\\|\\s*$")

func descriptions(doc string) map[string]string {
	out := map[string]string{}
	for _, m := range docRowRe.FindAllStringSubmatch(doc, -1) {
		out[m[1]] = m[2]
	}
	return out
}

var tokenRe = regexp.MustCompile("`([^`]*)`")
var simpleRe = regexp.MustCompile(`^[A-Za-z0-9_.:+\-]*$`)

// goNameRe matches a Go identifier a doc quotes (`schemas.SizeBucket`): not a value.
var goNameRe = regexp.MustCompile(`^[a-z]+\.[A-Z]`)

// choices are the simple backtick-quoted values of a description (`""` is
// the empty string; names of columns are not values), when it lists at
// least two.
func choices(desc string, columns map[string]bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range tokenRe.FindAllStringSubmatch(desc, -1) {
		v := m[1]
		if v == `""` {
			v = ""
		} else if !simpleRe.MatchString(v) || v == "" || columns[v] || goNameRe.MatchString(v) {
			continue
		}
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// key is a column whose values the rows of every dataset share, so views
// join; listed outermost first.
type key struct {
	name   string
	values []any
}

func keyDomains(cols []column) []key {
	has := map[string]column{}
	for _, c := range cols {
		has[c.name] = c
	}
	var keys []key
	add := func(name string, values []any) {
		if _, ok := has[name]; ok {
			keys = append(keys, key{name, values})
		}
	}
	add("contract_id", anys(Contracts))
	add("model", anys(Models))
	add("sample", []any{int64(0), int64(1)})
	// Enumerated columns that other datasets join on become keys too.
	for _, name := range []string{"oracle", "graph_setting", "subject", "ablation"} {
		if c, ok := has[name]; ok && c.choices != nil && c.typ.Kind() == reflect.String { // samples.ablation is a flag
			add(name, anys(c.choices))
		}
	}
	add("seq", []any{int64(0), int64(1)})
	add("step", []any{int64(0), int64(1), int64(2)})
	add("tx_index", []any{int64(0), int64(1), int64(2), int64(3)})
	for size(keys) > maxRows && len(keys) > 1 {
		keys = keys[:len(keys)-1]
	}
	return keys
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func size(keys []key) int {
	n := 1
	for _, k := range keys {
		n *= len(k.values)
	}
	return n
}

// product is every combination of the key values, outermost key slowest.
// Oracles without graphs (O1, O2) only get the empty graph setting.
func product(keys []key) []map[string]any {
	combos := []map[string]any{{}}
	for _, k := range keys {
		var next []map[string]any
		for _, c := range combos {
			for _, v := range k.values {
				if k.name == "graph_setting" && graphed(c["oracle"]) != (v != "") {
					continue // O1/O2 have no graph; O3/O4 always one
				}
				m := map[string]any{k.name: v}
				for kk, vv := range c {
					m[kk] = vv
				}
				next = append(next, m)
			}
		}
		combos = next
	}
	return combos
}

func graphed(oracle any) bool {
	o, ok := oracle.(string)
	return ok && o != "O1" && o != "O2"
}

// value draws a non-key column's value.
func (c column) value(rng *rand.Rand, row map[string]any) any {
	switch c.typ.Kind() {
	case reflect.Bool:
		return rng.Float64() < 0.7
	case reflect.Int64, reflect.Int32, reflect.Int:
		return c.intValue(rng)
	case reflect.Float64, reflect.Float32:
		return rng.Float64()
	case reflect.String:
		return c.stringValue(rng, row)
	}
	return reflect.Zero(c.typ).Interface()
}

func (c column) intValue(rng *rand.Rand) int64 {
	switch {
	case strings.HasPrefix(c.name, "n_") && strings.Contains(c.name, "function"):
		return int64(1 + rng.Intn(30))
	case strings.HasSuffix(c.name, "_ms"):
		return int64(rng.Intn(5000))
	}
	return int64(rng.Intn(300))
}

func (c column) stringValue(rng *rand.Rand, row map[string]any) string {
	name := c.name
	switch {
	case c.choices != nil:
		// A status's first listed value is the normal case (`ok`): favour
		// it so that filters on it keep rows.
		if strings.HasSuffix(name, "status") && rng.Float64() < 0.5 {
			return c.choices[0]
		}
		return c.choices[rng.Intn(len(c.choices))]
	case name == "mutations":
		return mutations(rng, row)
	case c.json:
		return "[]"
	case name == "skeleton_sha256":
		// One skeleton per contract, which every sample of it was generated from.
		sum := sha256.Sum256([]byte(fmt.Sprint(row["contract_id"])))
		return hex.EncodeToString(sum[:])
	case strings.HasSuffix(name, "sha256") || name == "artifact":
		return hexString(rng, 32)
	case name == "selector":
		return "0x" + hexString(rng, 4)
	case name == "address" || name == "sender" || name == "deployer" || strings.HasSuffix(name, "_address"):
		return "0x" + hexString(rng, 20)
	case strings.Contains(name, "wei") || strings.HasPrefix(name, "value"):
		return fmt.Sprint(rng.Int63n(1e18))
	case strings.Contains(name, "compiler"):
		return []string{"v0.4.24+commit.e67f0147", "v0.8.19+commit.7dd6d404"}[rng.Intn(2)]
	case name == "function":
		return []string{"transfer", "approve", "deposit", "withdraw", "initialize"}[rng.Intn(5)]
	case name == "name":
		if id, ok := row["contract_id"].(string); ok {
			n, _, _ := strings.Cut(id, "_")
			return n
		}
	case name == "error" || name == "reason" || strings.HasSuffix(name, "_error"):
		return ""
	}
	return fmt.Sprintf("%s-%d", name, rng.Intn(4))
}

var operators = []string{"flip-condition", "drop-require", "swap-arith", "remove-event"}

// mutations is the samples/generations JSON list: mutants have one or two
// operators, other generators none.
func mutations(rng *rand.Rand, row map[string]any) string {
	if row["model"] != "mutant" {
		return "[]"
	}
	var parts []string
	for i := 0; i <= rng.Intn(2); i++ {
		parts = append(parts, fmt.Sprintf(`{"function":"f%d","signature":"f%d()","operator":%q,"detail":""}`,
			i, i, operators[rng.Intn(len(operators))]))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func hexString(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	rng.Read(b)
	return fmt.Sprintf("%x", b)
}
