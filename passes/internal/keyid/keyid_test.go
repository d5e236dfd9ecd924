package keyid

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// stdTop must name exactly the top-level directories of the running Go's
// standard library that hold packages, so that a function of a module
// whose path has no dot ("shopsvc/payment") is not taken for the
// standard library's, and a new top-level standard package is noticed.
func TestStdTop(t *testing.T) {
	src := filepath.Join(build.Default.GOROOT, "src")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Skipf("no standard library source here: %v", err)
	}
	found := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "testdata" {
			found[e.Name()] = true
			if !slices.Contains(stdTop, e.Name()) {
				t.Errorf("%s/%s is a standard library directory that stdTop does not list", src, e.Name())
			}
		}
	}
	if !slices.IsSorted(stdTop) {
		t.Errorf("stdTop is not sorted: stdPath's binary search would miss names")
	}
	for _, name := range stdTop {
		if !found[name] {
			t.Errorf("stdTop lists %q, which %s does not hold", name, src)
		}
	}
	for path, want := range map[string]bool{
		"strings": true, "net/http": true, "crypto/rand": true,
		"shopsvc/payment": false, "github.com/acme/keys": false, "lockvet.test/keyspace": false,
	} {
		if got := stdPath(path); got != want {
			t.Errorf("stdPath(%q) = %v, want %v", path, got, want)
		}
	}
}
