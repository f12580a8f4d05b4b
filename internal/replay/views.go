package replay

import (
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/fuzz"
	"github.com/solbehave/solbehave/schemas"
)

// maxValueText bounds the decoded value kept per view read.
const maxValueText = 200

// View is a zero-argument view (or pure) function of the original's ABI.
type View struct {
	Name     string
	Selector [4]byte
	method   abi.Method
}

// ZeroArgViews lists the ABI's zero-argument view and pure functions, by name.
func ZeroArgViews(a abi.ABI) []View {
	var views []View
	for _, m := range a.Methods {
		if m.IsConstant() && len(m.Inputs) == 0 {
			views = append(views, View{Name: m.Name, Selector: [4]byte(m.ID), method: m})
		}
	}
	sort.Slice(views, func(i, j int) bool { return views[i].Name < views[j].Name })
	return views
}

// Snapshot is one reading of every view, after some calls of a sequence.
type Snapshot struct {
	AfterCalls int
	Values     []ViewValue // one per View, in order
}

// ViewValue is one view's answer.
type ViewValue struct {
	Status schemas.CallStatus
	Raw    []byte // the returned data, when Status is success
	Text   string // Raw decoded with the original's ABI
}

// readViews reads every view on the state h, from the deployer, as eth_call
// would (effects discarded).
func readViews(h *chain.Harness, from, to common.Address, views []View, b chain.Block, after int) Snapshot {
	s := Snapshot{AfterCalls: after, Values: make([]ViewValue, len(views))}
	for i, v := range views {
		res, err := h.StaticCall(from, to, v.Selector[:], b)
		o := observe(res, err)
		s.Values[i].Status = o.Status
		if o.Status == schemas.StatusSuccess {
			s.Values[i].Raw = res.ReturnData
			s.Values[i].Text = decodeValue(v.method, res.ReturnData)
		}
	}
	return s
}

// decodeValue formats a view's return data for people; undecodable data is
// shown as hex.
func decodeValue(m abi.Method, ret []byte) string {
	vals, err := m.Outputs.Unpack(ret)
	var text string
	if err != nil {
		text = "0x" + hex.EncodeToString(ret)
	} else {
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = formatValue(v)
		}
		text = strings.Join(parts, ", ")
	}
	if len(text) > maxValueText {
		text = text[:maxValueText]
	}
	return text
}

func formatValue(v any) string {
	switch x := v.(type) {
	case []byte:
		return "0x" + hex.EncodeToString(x)
	case common.Address:
		return strings.ToLower(x.Hex())
	case string:
		return fmt.Sprintf("%q", x)
	default:
		if b, ok := fuzz.FixedBytes(v); ok {
			return "0x" + hex.EncodeToString(b)
		}
		return fmt.Sprint(v)
	}
}
