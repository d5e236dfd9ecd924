package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// switches are the environment variables that turn on the tests the
// README's go test ./... skips; needSlow reads LOCKVET_SLOW. (Spelled in
// two pieces: TestCIRunsSwitchedTests flags a switch's name anywhere but
// in a test or needSlow.)
var switches = []string{"LOCKVET_" + "SLOW", "LOCKVET_" + "GOLANGCI", "LOCKVET_" + "PROMTOOL"}

// TestCIRunsSwitchedTests: .ci/run's second go test runs only the tests
// that a switch turns on (switched_tests) in their packages
// (switched_pkgs), not every test of those packages again. Each test of
// the repository that reads a switch, itself or through needSlow, must
// be named there, or CI would no longer run it; and each name there must
// be such a test.
func TestCIRunsSwitchedTests(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	script, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	assigned := func(name string) string {
		m := regexp.MustCompile(`(?m)^` + name + `='([^']*)'$`).FindSubmatch(script)
		if m == nil {
			t.Fatalf(".ci/run assigns no %s='…'", name)
		}
		return string(m[1])
	}
	testsRE, err := regexp.Compile(assigned("switched_tests"))
	if err != nil {
		t.Fatalf("switched_tests: %v", err)
	}
	pkgs := strings.Fields(assigned("switched_pkgs"))

	// The top-level tests that read a switch or call needSlow, anywhere
	// in their body, by package directory.
	found := map[string][]string{} // "./dir" → test names
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		dir := "./" + filepath.ToSlash(rel)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				if readsSwitch(decl) {
					t.Errorf("%s: a switch named outside a function; only Test functions (and needSlow) may name one, so that this test can name the tests CI must run with the switches", fset.Position(decl.Pos()))
				}
				continue
			}
			if fn.Body == nil || !readsSwitch(fn.Body) {
				continue
			}
			switch {
			case fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test"):
				found[dir] = append(found[dir], fn.Name.Name)
			case fn.Name.Name == "needSlow":
			default:
				// A helper that reads a switch hides which tests do.
				t.Errorf("%s: %s reads a switch; only Test functions (and needSlow) may, so that this test can name the tests CI must run with the switches", fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatal("no test reads a switch: the walk found nothing")
	}
	var all []string
	for dir, names := range found {
		if !slices.Contains(pkgs, dir) {
			t.Errorf("%s has tests that a switch turns on (%s); .ci/run's switched_pkgs does not name it", dir, strings.Join(names, ", "))
		}
		for _, n := range names {
			if !testsRE.MatchString(n) {
				t.Errorf("%s.%s is turned on by a switch; .ci/run's switched_tests does not match it", dir, n)
			}
		}
		all = append(all, names...)
	}
	for _, p := range pkgs {
		if found[p] == nil {
			t.Errorf(".ci/run's switched_pkgs names %s, which has no test that a switch turns on", p)
		}
	}
	for _, n := range regexp.MustCompile(`Test\w+`).FindAllString(testsRE.String(), -1) {
		if !slices.Contains(all, n) {
			t.Errorf(".ci/run's switched_tests names %s, which is not a test that a switch turns on", n)
		}
	}
}

// readsSwitch reports whether node calls needSlow or names a switch in a
// string literal (os.Getenv("LOCKVET_GOLANGCI")).
func readsSwitch(node ast.Node) bool {
	found := false
	ast.Inspect(node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "needSlow" {
				found = true
			}
		case *ast.BasicLit:
			if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && slices.Contains(switches, s) {
				found = true
			}
		}
		return !found
	})
	return found
}
