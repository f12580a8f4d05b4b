package solc

import (
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// placeholderLen is the width of a library placeholder in hex code.
const placeholderLen = 40

// CreationCode returns the creation bytecode with library placeholders
// replaced. libs is keyed by library name ("SafeMath") or fully qualified
// name ("file.sol:SafeMath"). Both placeholder forms are handled: old
// `__file.sol:Name____` (name truncated to 36 characters) and new
// `__$<34 hex of keccak256(fq name)>$__` (solc >= 0.5.0).
func (c *Contract) CreationCode(libs map[string]common.Address) ([]byte, error) {
	return link(c.Creation, c.Libraries(), libs, c.Name)
}

// RuntimeCode is CreationCode for the deployed (runtime) bytecode.
func (c *Contract) RuntimeCode(libs map[string]common.Address) ([]byte, error) {
	return link(c.Runtime, c.Libraries(), libs, c.Name)
}

// Libraries lists the libraries the code links: "file:Name" (or bare names)
// from the link references, sorted.
func (c *Contract) Libraries() []string {
	seen := map[string]bool{}
	var out []string
	for _, refs := range []map[string]map[string][]LinkRef{c.LinkReferences, c.RuntimeLinkReferences} {
		for file, libsInFile := range refs {
			for name := range libsInFile {
				fq := name
				if file != "" {
					fq = file + ":" + name
				}
				if !seen[fq] {
					seen[fq] = true
					out = append(out, fq)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func link(code string, known []string, libs map[string]common.Address, contract string) ([]byte, error) {
	code = strings.TrimPrefix(code, "0x")
	slots := placeholderTable(known, libs)
	var b strings.Builder
	b.Grow(len(code))
	var missing []string
	for i := 0; i < len(code); {
		if code[i] != '_' {
			b.WriteByte(code[i])
			i++
			continue
		}
		if i+placeholderLen > len(code) {
			return nil, fmt.Errorf("solc: %s: truncated library placeholder at hex offset %d", contract, i)
		}
		p := code[i : i+placeholderLen]
		if addr, ok := lookupPlaceholder(p, slots, libs); ok {
			b.WriteString(hex.EncodeToString(addr.Bytes()))
		} else {
			missing = appendOnce(missing, describePlaceholder(p, known))
			b.WriteString(strings.Repeat("0", placeholderLen))
		}
		i += placeholderLen
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("solc: %s: unlinked libraries: %s", contract, strings.Join(missing, ", "))
	}
	out, err := hex.DecodeString(b.String())
	if err != nil {
		return nil, fmt.Errorf("solc: %s: bad bytecode hex: %w", contract, err)
	}
	return out, nil
}

// placeholderTable maps every placeholder a library could have to its
// address: for each given name, the old and new form of the name as given
// and, for bare names, of every known "file:Name" with that name.
func placeholderTable(known []string, libs map[string]common.Address) map[string]common.Address {
	table := map[string]common.Address{}
	add := func(fq string, addr common.Address) {
		table[oldPlaceholder(fq)] = addr
		table[newPlaceholder(fq)] = addr
	}
	for name, addr := range libs {
		add(name, addr)
		for _, fq := range known {
			if bareName(fq) == name {
				add(fq, addr)
			}
		}
	}
	return table
}

// lookupPlaceholder also matches an old-form placeholder whose label (file
// path unknown to the caller) ends in ":Name" for a given bare Name.
func lookupPlaceholder(p string, slots, libs map[string]common.Address) (common.Address, bool) {
	if addr, ok := slots[p]; ok {
		return addr, true
	}
	if strings.HasPrefix(p, "__$") {
		return common.Address{}, false
	}
	label := strings.TrimRight(p[2:], "_")
	for name, addr := range libs {
		if label == name || strings.HasSuffix(label, ":"+name) {
			return addr, true
		}
	}
	return common.Address{}, false
}

func oldPlaceholder(fq string) string {
	if len(fq) > 36 {
		fq = fq[:36]
	}
	return "__" + fq + strings.Repeat("_", 38-len(fq))
}

func newPlaceholder(fq string) string {
	return "__$" + hex.EncodeToString(crypto.Keccak256([]byte(fq)))[:34] + "$__"
}

func bareName(fq string) string {
	return fq[strings.LastIndex(fq, ":")+1:]
}

// describePlaceholder names the library behind a placeholder for errors.
func describePlaceholder(p string, known []string) string {
	for _, fq := range known {
		if oldPlaceholder(fq) == p || newPlaceholder(fq) == p {
			return fq
		}
	}
	if strings.HasPrefix(p, "__$") {
		return p
	}
	return strings.TrimRight(p[2:], "_")
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
