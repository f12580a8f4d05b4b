package solc

import (
	"context"
	"testing"
)

// BenchmarkCompile compares a persistent worker (soljson loaded once) with
// spawning one Node process per compile, on a small contract.
func BenchmarkCompile(b *testing.B) {
	needNode(b)
	for _, mode := range []struct {
		name  string
		spawn bool
	}{{"persistent", false}, {"spawn", true}} {
		b.Run(mode.name, func(b *testing.B) {
			m := NewManager(Options{Spawn: mode.spawn, MaxWorkers: 1})
			defer m.Close()
			in := Input{Compiler: "0.8.19", Sources: map[string]string{"k.sol": srcSimple08}, Optimize: true}
			if _, err := m.Compile(context.Background(), in); err != nil { // install and warm up
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := m.Compile(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/compile")
		})
	}
}
