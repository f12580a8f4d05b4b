//go:build solcfixtures

package bytecode

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/solc"
)

func TestDbgUnresolved(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "corpus", "mainnet")
	m := solc.NewManager(solc.Options{})
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rec := readSourceRecord(t, filepath.Join(root, os.Getenv("DBGC"), "getsourcecode.json"))
	code, _ := compileRecord(t, ctx, m, rec)
	c := BuildCFG(code)
	f, _ := os.Create("/tmp/bcdbg/unres.txt")
	defer f.Close()
	seen := map[uint64]bool{}
	DebugUnresolved = func(b *Block, path []uint64) {
		if seen[b.Start] {
			return
		}
		seen[b.Start] = true
		fmt.Fprintf(f, "=== unresolved at %#x, path %x\n", b.Start, path)
		var st *absStack
		for _, r := range Dispatch(c) {
			if r.Entry == path[0] {
				st = r.stack.clone()
			}
		}
		for _, pc := range path {
			simulate(c.Blocks[pc], st)
			line := ""
			for i := 0; i < 10 && i < len(st.vals); i++ {
				v := st.peek(i)
				if v.kind == constant {
					line += fmt.Sprintf(" %x", v.n.Bytes())
				} else {
					line += fmt.Sprintf(" ?%d", v.kind)
				}
			}
			fmt.Fprintf(f, "after %#x (h=%d):%s\n", pc, len(st.vals), line)
		}
		for _, pc := range path[max(0, len(path)-6):] {
			for _, in := range c.Blocks[pc].Instrs {
				fmt.Fprintln(f, "   ", in)
			}
			fmt.Fprintln(f, "   --")
		}
	}
	RecoverFunctions(c, []byte(rec.ABI))
}
