package solc

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Installed lists the compiler versions in the cache ($SOLBEHAVE_CACHE, else
// the user cache): the folders holding a soljson.js, sorted.
func Installed() ([]string, error) {
	root := filepath.Join(defaultCacheDir(), "solc")
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(root, e.Name(), "soljson.js")); e.IsDir() && err == nil {
			out = append(out, e.Name())
		}
	}
	sort.Slice(out, func(i, j int) bool { return versionLess(out[i], out[j]) })
	return out, nil
}

// versionLess orders "0.4.9" before "0.4.10" (a suffix such as "-fixed" after the plain version).
func versionLess(a, b string) bool {
	var x, y [3]int
	var sa, sb string
	fmt.Sscanf(a, "%d.%d.%d%s", &x[0], &x[1], &x[2], &sa)
	fmt.Sscanf(b, "%d.%d.%d%s", &y[0], &y[1], &y[2], &sb)
	if x != y {
		return x[0] < y[0] || x[0] == y[0] && (x[1] < y[1] || x[1] == y[1] && x[2] < y[2])
	}
	return sa < sb
}

// CacheDir is the cache folder the compilers install into.
func CacheDir() string { return defaultCacheDir() }
