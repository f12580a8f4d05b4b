package guardstate

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
)

// Layout is where a contract keeps its state variables in storage.
type Layout struct {
	Vars map[string]Var
	// Computed is true when the layout was derived from the AST (compilers
	// before 0.5.13 do not report one), false when solc reported it.
	Computed bool
}

// Var is one state variable's place and type.
type Var struct {
	Name   string
	Slot   *big.Int
	Offset int  // bytes from the low-order end of the slot
	Type   Type // its type
}

// Type is a storage type as far as guards need it.
type Type struct {
	Label    string // e.g. uint256, address, mapping(address => uint256)
	Encoding string // "inplace" (value types, structs, static arrays), "mapping", "dynamic_array", "bytes"
	Bytes    int    // bytes it occupies in place (32 for mappings and dynamic types)
	Key      *Type  // mappings
	Value    *Type  // mappings
}

// valueKind classifies an in-place value type: int, uint, bool, address,
// fixed bytes; "" for anything else (structs, arrays).
func (t Type) valueKind() string {
	l := strings.TrimSuffix(t.Label, " payable")
	switch {
	case l == "bool":
		return "bool"
	case l == "address" || strings.HasPrefix(l, "contract ") || strings.HasPrefix(l, "contract "):
		return "address"
	case strings.HasPrefix(l, "uint"):
		return "uint"
	case strings.HasPrefix(l, "int"):
		return "int"
	case strings.HasPrefix(l, "enum "):
		return "uint"
	case strings.HasPrefix(l, "bytes") && l != "bytes":
		return "fixedbytes"
	}
	return ""
}

// LayoutOf returns the storage layout of a compiled contract: solc's own
// where it reports one (0.5.13 and later), else one computed from the AST
// with solc's packing rules. prog is out's ASTs, for a caller that parsed
// them already (nil: parsed here when needed).
func LayoutOf(out *solc.Output, prog *solast.Program, contract string) (*Layout, error) {
	c, err := out.Contract(contract)
	if err != nil {
		return nil, err
	}
	if len(c.StorageLayout) > 0 {
		return parseStorageLayout(c.StorageLayout)
	}
	if prog == nil {
		if prog, err = solast.ParseProgram(out.ASTs(), nil); err != nil {
			return nil, fmt.Errorf("guardstate: %w", err)
		}
	}
	return computeLayout(prog, contract)
}

// --- solc's storageLayout --------------------------------------------------

type solcLayout struct {
	Storage []struct {
		Label  string `json:"label"`
		Offset int    `json:"offset"`
		Slot   string `json:"slot"`
		Type   string `json:"type"`
	} `json:"storage"`
	Types map[string]struct {
		Encoding      string `json:"encoding"`
		Label         string `json:"label"`
		NumberOfBytes string `json:"numberOfBytes"`
		Key           string `json:"key"`
		Value         string `json:"value"`
	} `json:"types"`
}

func parseStorageLayout(raw json.RawMessage) (*Layout, error) {
	var sl solcLayout
	if err := json.Unmarshal(raw, &sl); err != nil {
		return nil, fmt.Errorf("guardstate: storageLayout: %w", err)
	}
	var typeOf func(id string, depth int) (Type, error)
	typeOf = func(id string, depth int) (Type, error) {
		t, ok := sl.Types[id]
		if !ok || depth > 16 {
			return Type{}, fmt.Errorf("guardstate: storageLayout: unknown type %q", id)
		}
		n, _ := strconv.Atoi(t.NumberOfBytes)
		out := Type{Label: t.Label, Encoding: t.Encoding, Bytes: n}
		if t.Encoding == "mapping" {
			k, err := typeOf(t.Key, depth+1)
			if err != nil {
				return Type{}, err
			}
			v, err := typeOf(t.Value, depth+1)
			if err != nil {
				return Type{}, err
			}
			out.Key, out.Value = &k, &v
		}
		return out, nil
	}
	l := &Layout{Vars: map[string]Var{}}
	for _, s := range sl.Storage {
		slot, ok := new(big.Int).SetString(s.Slot, 10)
		if !ok {
			return nil, fmt.Errorf("guardstate: storageLayout: bad slot %q", s.Slot)
		}
		t, err := typeOf(s.Type, 0)
		if err != nil {
			return nil, err
		}
		if _, dup := l.Vars[s.Label]; !dup { // a shadowed base variable keeps the first
			l.Vars[s.Label] = Var{Name: s.Label, Slot: slot, Offset: s.Offset, Type: t}
		}
	}
	return l, nil
}

// --- computed layout (compilers before 0.5.13) -------------------------------

type layoutBuilder struct {
	structs map[string]*solast.Node // struct name -> StructDefinition
	enums   map[string]int          // enum name -> member count
}

func computeLayout(prog *solast.Program, contract string) (*Layout, error) {
	b := &layoutBuilder{structs: map[string]*solast.Node{}, enums: map[string]int{}}
	prog.Walk(func(n *solast.Node) bool {
		switch n.Type {
		case "StructDefinition":
			b.structs[n.Name] = n
		case "EnumDefinition":
			b.enums[n.Name] = len(n.Children)
		}
		return true
	})
	target := prog.Contract(contract)
	if target == nil {
		return nil, fmt.Errorf("guardstate: contract %s not in the AST", contract)
	}
	chain := prog.Linearization(target) // most base first
	slices.Reverse(chain)
	l := &Layout{Vars: map[string]Var{}, Computed: true}
	slot, offset := new(big.Int), 0
	for _, c := range chain {
		for _, v := range solast.StateVariables(c) {
			if v.Constant || v.Immutable {
				continue
			}
			t, err := b.typeOf(v.Type, 0)
			if err != nil {
				return nil, fmt.Errorf("guardstate: %s.%s: %w", c.Name, v.Name, err)
			}
			s, o := place(slot, offset, t)
			if _, dup := l.Vars[v.Name]; !dup || c == target {
				l.Vars[v.Name] = Var{Name: v.Name, Slot: new(big.Int).Set(s), Offset: o, Type: t}
			}
			slot, offset = advance(s, o, t)
		}
	}
	return l, nil
}

// place puts a type at the current position: value types pack into the
// current slot when they fit; everything else starts a new slot.
func place(slot *big.Int, offset int, t Type) (*big.Int, int) {
	if t.valueKind() != "" && offset+t.Bytes <= 32 {
		return slot, offset
	}
	if offset == 0 {
		return slot, 0
	}
	return new(big.Int).Add(slot, big.NewInt(1)), 0
}

// advance moves past a placed type; non-value types also end their slot.
func advance(slot *big.Int, offset int, t Type) (*big.Int, int) {
	if t.valueKind() != "" {
		return slot, offset + t.Bytes
	}
	slots := (t.Bytes + 31) / 32
	return new(big.Int).Add(slot, big.NewInt(int64(max(slots, 1)))), 0
}

// typeOf reads a solc type string ("uint256", "mapping(address => bool)",
// "struct C.S storage ref", "address[3] storage ref").
func (b *layoutBuilder) typeOf(ts string, depth int) (Type, error) {
	if depth > 16 {
		return Type{}, fmt.Errorf("type %q nests too deeply", ts)
	}
	ts = strings.TrimSpace(ts)
	for _, suffix := range []string{" storage ref", " storage pointer", " memory", " calldata", " pointer", " ref"} {
		ts = strings.TrimSuffix(ts, suffix)
	}
	switch {
	case strings.HasPrefix(ts, "mapping("):
		return b.mappingType(ts, depth)
	case strings.HasSuffix(ts, "]"):
		return b.arrayType(ts, depth)
	case ts == "string" || ts == "bytes":
		return Type{Label: ts, Encoding: "bytes", Bytes: 32}, nil
	case strings.HasPrefix(ts, "struct "):
		return b.structType(ts, depth)
	case strings.HasPrefix(ts, "enum "):
		return Type{Label: ts, Encoding: "inplace", Bytes: enumBytes(b.enums[lastName(ts)])}, nil
	}
	t := Type{Label: ts, Encoding: "inplace"}
	switch l := strings.TrimSuffix(ts, " payable"); {
	case l == "bool":
		t.Bytes = 1
	case l == "address" || strings.HasPrefix(l, "contract "):
		t.Bytes = 20
	case strings.HasPrefix(l, "uint") || strings.HasPrefix(l, "int"):
		bits := 256
		if n := strings.TrimLeft(l, "uint"); n != "" {
			bits, _ = strconv.Atoi(n)
		}
		t.Bytes = bits / 8
	case strings.HasPrefix(l, "bytes"):
		t.Bytes, _ = strconv.Atoi(strings.TrimPrefix(l, "bytes"))
	case strings.HasPrefix(l, "function"):
		t.Bytes = 24
		t.Label = "function"
	default:
		return Type{}, fmt.Errorf("unknown type %q", ts)
	}
	if t.Bytes <= 0 || t.Bytes > 32 {
		return Type{}, fmt.Errorf("bad size for type %q", ts)
	}
	return t, nil
}

func enumBytes(members int) int {
	if members > 256 {
		return 2
	}
	return 1
}

func lastName(ts string) string {
	name := strings.Fields(ts + " x")[1]
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return name
}

func (b *layoutBuilder) mappingType(ts string, depth int) (Type, error) {
	inner := strings.TrimSuffix(strings.TrimPrefix(ts, "mapping("), ")")
	i := strings.Index(inner, "=>")
	if i < 0 {
		return Type{}, fmt.Errorf("bad mapping type %q", ts)
	}
	k, err := b.typeOf(inner[:i], depth+1)
	if err != nil {
		return Type{}, err
	}
	v, err := b.typeOf(inner[i+2:], depth+1)
	if err != nil {
		return Type{}, err
	}
	return Type{Label: ts, Encoding: "mapping", Bytes: 32, Key: &k, Value: &v}, nil
}

func (b *layoutBuilder) arrayType(ts string, depth int) (Type, error) {
	open := strings.LastIndex(ts, "[")
	elem, err := b.typeOf(ts[:open], depth+1)
	if err != nil {
		return Type{}, err
	}
	n := ts[open+1 : len(ts)-1]
	if n == "" {
		return Type{Label: ts, Encoding: "dynamic_array", Bytes: 32}, nil
	}
	count, err := strconv.Atoi(n)
	if err != nil {
		return Type{}, fmt.Errorf("bad array length in %q", ts)
	}
	if elem.valueKind() != "" {
		perSlot := 32 / elem.Bytes
		return Type{Label: ts, Encoding: "inplace", Bytes: 32 * ((count + perSlot - 1) / perSlot)}, nil
	}
	return Type{Label: ts, Encoding: "inplace", Bytes: count * 32 * ((elem.Bytes + 31) / 32)}, nil
}

func (b *layoutBuilder) structType(ts string, depth int) (Type, error) {
	def := b.structs[lastName(ts)]
	if def == nil {
		return Type{}, fmt.Errorf("struct %q not found", ts)
	}
	slot, offset := new(big.Int), 0
	for _, m := range def.Children {
		if m.Type != "VariableDeclaration" {
			continue
		}
		t, err := b.typeOf(memberType(m), depth+1)
		if err != nil {
			return Type{}, err
		}
		s, o := place(slot, offset, t)
		slot, offset = advance(s, o, t)
	}
	slots := slot.Int64()
	if offset > 0 {
		slots++
	}
	return Type{Label: ts, Encoding: "inplace", Bytes: int(max(slots, 1)) * 32}, nil
}

func memberType(v *solast.Node) string {
	if td, ok := v.Attrs["typeDescriptions"].(map[string]any); ok {
		if s, ok := td["typeString"].(string); ok && s != "" {
			return s
		}
	}
	return v.Str("type")
}
