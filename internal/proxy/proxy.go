// Package proxy detects proxy contracts, which the benchmark excludes: their
// behaviour lives in another contract that regeneration never sees. Evidence
// comes from Etherscan's Proxy flag, the source (EIP-1967 and EIP-1822 slots,
// a fallback forwarding with delegatecall) and the bytecode (slot constants
// pushed next to a DELEGATECALL).
package proxy

import (
	"encoding/hex"
	"regexp"
	"strings"
)

// Well-known implementation slots.
const (
	eip1967Slot   = "360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc" // keccak("eip1967.proxy.implementation") - 1
	eip1967Beacon = "a3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50"
	eip1822Slot   = "c5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7" // keccak("PROXIABLE")
	ozLegacySlot  = "7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3" // keccak("org.zeppelinos.proxy.implementation")
)

var slots = map[string]string{eip1967Slot: "EIP-1967 implementation slot", eip1967Beacon: "EIP-1967 beacon slot",
	eip1822Slot: "EIP-1822 PROXIABLE slot", ozLegacySlot: "zeppelinos implementation slot"}

// Verdict says whether a contract is a proxy and why.
type Verdict struct {
	Proxy    bool
	Evidence string
}

// Detect combines Etherscan's flag ("1" = proxy, "" = unknown), the source and
// the creation or runtime bytecode (either may be nil).
func Detect(etherscanFlag, source string, code []byte) Verdict {
	if etherscanFlag == "1" {
		return Verdict{true, "Etherscan Proxy flag"}
	}
	if ev := fromSource(source); ev != "" {
		return Verdict{true, ev}
	}
	if ev := fromBytecode(code); ev != "" {
		return Verdict{true, ev}
	}
	return Verdict{}
}

var (
	comments     = regexp.MustCompile(`(?s)//[^\n]*|/\*.*?\*/`)
	fallbackDecl = regexp.MustCompile(`\b(fallback\s*\(|function\s*\(\s*\)\s*(external|public|payable))`)
	delegatecall = regexp.MustCompile(`\bdelegatecall\s*\(`)
	slotStrings  = regexp.MustCompile(`"eip1967\.proxy\.(implementation|beacon)"|"PROXIABLE"|"org\.zeppelinos\.proxy\.implementation"`)
)

// fromSource looks for proxy patterns in comment-stripped source.
func fromSource(src string) string {
	code := comments.ReplaceAllString(src, "")
	lower := strings.ToLower(code)
	for slot, what := range slots {
		if strings.Contains(lower, "0x"+slot) {
			return "source names the " + what
		}
	}
	if slotStrings.MatchString(code) {
		return "source derives a proxy implementation slot"
	}
	if fallbackDecl.MatchString(code) && delegatecall.MatchString(code) && strings.Contains(lower, "implementation") {
		return "source: fallback forwarding to an implementation with delegatecall"
	}
	return ""
}

// fromBytecode looks for a pushed implementation slot in code that also
// executes DELEGATECALL.
func fromBytecode(code []byte) string {
	if len(code) == 0 || !hasDelegatecall(code) {
		return ""
	}
	h := hex.EncodeToString(code)
	for slot, what := range slots {
		if strings.Contains(h, "7f"+slot) {
			return "bytecode pushes the " + what + " and executes DELEGATECALL"
		}
	}
	return ""
}

// hasDelegatecall walks instructions (skipping PUSH data) looking for DELEGATECALL.
func hasDelegatecall(code []byte) bool {
	for pc := 0; pc < len(code); pc++ {
		op := code[pc]
		switch {
		case op == 0xf4:
			return true
		case op >= 0x60 && op <= 0x7f:
			pc += int(op - 0x5f)
		}
	}
	return false
}
