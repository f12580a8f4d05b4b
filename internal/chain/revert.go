package chain

import (
	"encoding/hex"
	"fmt"
	"math/big"
)

var (
	errorSelector = [4]byte{0x08, 0xc3, 0x79, 0xa0} // Error(string)
	panicSelector = [4]byte{0x4e, 0x48, 0x7b, 0x71} // Panic(uint256)
)

// DecodeRevert turns revert data into a reason: the message of Error(string),
// "panic: 0x11" for Panic(uint256), "custom error 0x<selector>" for anything
// else, and "" for an empty revert.
func DecodeRevert(ret []byte) string {
	if len(ret) == 0 {
		return ""
	}
	if len(ret) < 4 {
		return "custom error 0x" + hex.EncodeToString(ret)
	}
	switch [4]byte(ret[:4]) {
	case errorSelector:
		if msg, ok := abiString(ret[4:]); ok {
			return msg
		}
	case panicSelector:
		if len(ret) >= 36 {
			return formatPanic(ret[4:36])
		}
	}
	return "custom error 0x" + hex.EncodeToString(ret[:4])
}

// abiString decodes a single ABI-encoded string argument.
func abiString(args []byte) (string, bool) {
	offset, ok := abiWord(args, 0)
	if !ok {
		return "", false
	}
	length, ok := abiWord(args, offset)
	if !ok || length > uint64(len(args))-offset-32 {
		return "", false
	}
	start := offset + 32
	return string(args[start : start+length]), true
}

// abiWord reads the 32-byte word at off as a uint64 that fits the data.
func abiWord(data []byte, off uint64) (uint64, bool) {
	if off > uint64(len(data)) || uint64(len(data))-off < 32 {
		return 0, false
	}
	v := new(big.Int).SetBytes(data[off : off+32])
	if !v.IsUint64() || v.Uint64() > uint64(len(data)) {
		return 0, false
	}
	return v.Uint64(), true
}

func formatPanic(word []byte) string {
	code := new(big.Int).SetBytes(word)
	if code.IsUint64() {
		return fmt.Sprintf("panic: 0x%02x", code.Uint64())
	}
	return "panic: 0x" + code.Text(16)
}
