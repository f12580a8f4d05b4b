package llm

import (
	"path/filepath"
	"testing"
)

func TestPoolOneClientPerModel(t *testing.T) {
	p := NewPool(Options{BaseURL: "http://127.0.0.1:1/v1"}, "/data")
	a, b := p.Client("m1"), p.Client("m2")
	if a == b || p.Client("m1") != a {
		t.Fatal("want one client per model, made once")
	}
	if a.opts.Model != "m1" || a.opts.CacheDir != filepath.Join("/data", "llm_cache") {
		t.Errorf("options %+v", a.opts)
	}
	if o := (Options{CacheDir: "/elsewhere"}).WithCache("/data"); o.CacheDir != "/elsewhere" {
		t.Errorf("a cache folder the user named was replaced: %s", o.CacheDir)
	}
}
