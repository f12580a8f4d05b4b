package bytecode

import "testing"

func BenchmarkBuildCFG(b *testing.B) {
	for _, fx := range fixtures {
		f := loadFixture(b, fx)
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(f.code)))
			for b.Loop() {
				BuildCFG(f.code)
			}
		})
	}
}

func BenchmarkRecoverFunctions(b *testing.B) {
	for _, fx := range fixtures {
		f := loadFixture(b, fx)
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := RecoverFunctions(BuildCFG(f.code), f.abi); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
