package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
)

const module = "github.com/lockvet/lockvet/"

// parts are the command's packages below cmd/ and which of them each may
// import: the driver and the finding type below everything, go vet's
// tool and the operator commands over the driver, the outputs, the gates
// and -fix over the finding type alone.
var parts = map[string][]string{
	"internal/findings":      nil,
	"internal/driver":        {"internal/findings"},
	"internal/vettool":       {"internal/driver"},
	"internal/output":        {"internal/findings"},
	"internal/gates":         {"internal/findings"},
	"internal/applyfix":      {"internal/findings"},
	"internal/operator":      {"internal/driver"},
	"internal/operator/live": {"internal/operator", "internal/driver"},
	"internal/clitest":       {"internal/findings", "internal/driver"}, // tests only
}

// TestLayering: imports flow one way (DESIGN.md, section 2): no check
// imports another, the op model (passes/redisops) imports no check,
// nothing under analyzer/ or passes/ imports the command's parts, the
// parts import each other only as parts allows, no package but a test
// imports internal/clitest; and the lockvet binary, which go vet starts
// once per package, links neither a Redis client nor the Prometheus
// client nor the net package (internal/operator says why).
func TestLayering(t *testing.T) {
	t.Parallel()
	r := command(t, clitest.Root(), "go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	r.WantCode(t, 0)
	imports := map[string][]string{} // module-relative path → module-relative imports
	for line := range strings.Lines(r.Stdout) {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], module) {
			continue
		}
		var own []string
		for _, imp := range f[1:] {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				own = append(own, rel)
			}
		}
		imports[strings.TrimPrefix(f[0], module)] = own
	}
	entries, err := os.ReadDir(filepath.Join(clitest.Root(), "passes"))
	if err != nil {
		t.Fatal(err)
	}
	isCheck := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() && !slices.Contains([]string{"internal", "redisops", "inventory", "testdata"}, e.Name()) {
			isCheck["passes/"+e.Name()] = true
		}
	}
	if len(isCheck) < 10 {
		t.Fatalf("%d checks under passes/: the walk found too few", len(isCheck))
	}
	for pkg, imps := range imports {
		for _, imp := range imps {
			_, impIsPart := parts[imp]
			switch {
			case isCheck[pkg] && isCheck[imp]:
				t.Errorf("check %s imports check %s", pkg, imp)
			case (pkg == "passes/redisops" || strings.HasPrefix(pkg, "passes/internal/")) && (isCheck[imp] || imp == "passes/inventory"):
				t.Errorf("%s, below the checks, imports %s", pkg, imp)
			case (strings.HasPrefix(pkg, "passes/") || pkg == "analyzer") && impIsPart && imp != "internal/applyfix":
				// (applyfix is shared: passes/internal/lvtest applies fixes
				// as -fix does.)
				t.Errorf("%s imports %s, a part of the command", pkg, imp)
			case imp == "internal/clitest":
				t.Errorf("%s imports internal/clitest, which is for tests", pkg)
			}
			if allowed, isPart := parts[pkg]; isPart && impIsPart && !slices.Contains(allowed, imp) {
				t.Errorf("%s imports %s; the parts' layering allows %v", pkg, imp, allowed)
			}
		}
	}
	for part := range parts {
		if _, ok := imports[part]; !ok {
			t.Errorf("go list has no package %s", part)
		}
	}

	r = command(t, clitest.Root(), "go", "list", "-deps", "./cmd/lockvet")
	r.WantCode(t, 0)
	for dep := range strings.Lines(r.Stdout) {
		dep = strings.TrimSpace(dep)
		if dep == "net" || dep == "os/user" || strings.HasPrefix(dep, "github.com/redis/") || strings.HasPrefix(dep, "github.com/prometheus/") {
			t.Errorf("the lockvet binary links %s", dep)
		}
	}
}
