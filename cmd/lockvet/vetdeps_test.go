package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestVetTypesOnly: the vetx file lockvet writes for a dependency it has
// no facts for (vetdeps.go) is one unitchecker reads. A package p is
// written with vetTypesOnly: its function body holds a type error, which
// a type-check that skips bodies does not see (the compiler would; here
// it shows which path ran). Then lockvet, as go vet runs it on a package
// it reports on (unitchecker, not VetxOnly), type-checks q, which uses
// p's declarations, from that file.
func TestVetTypesOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return file
	}
	cfg := func(name string, c map[string]any) string {
		t.Helper()
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return write(name, string(data))
	}

	pSrc := write("p.go", `package p

type Lock struct{ Key string }

func New[K ~string](k K) *Lock { var n int = "not an int"; _ = n; return &Lock{Key: string(k)} }

const TTL = 3 * 1000
`)
	pVetx := filepath.Join(dir, "p.vetx")
	noLock := func(string) bool { return false }
	handled, err := vetTypesOnly(cfg("p.cfg", map[string]any{
		"ID": "example.com/p", "ImportPath": "example.com/p", "GoVersion": "go1.22",
		"GoFiles": []string{pSrc}, "ImportMap": map[string]string{}, "PackageVetx": map[string]string{},
		"VetxOnly": true, "VetxOutput": pVetx, "Stdout": filepath.Join(dir, "p.stdout"),
	}), true, noLock, true)
	if !handled || err != nil {
		t.Fatalf("vetTypesOnly(p) = %v, %v; want true, nil (bodies are not type-checked)", handled, err)
	}

	qSrc := write("q.go", `package q

import "example.com/p"

var L = p.New("order:1")

var K string = L.Key

var _ [p.TTL]byte
`)
	q := cfg("q.cfg", map[string]any{
		"ID": "example.com/q", "Compiler": "gc", "Dir": dir, "ImportPath": "example.com/q", "GoVersion": "go1.22",
		"GoFiles": []string{qSrc}, "NonGoFiles": []string{}, "IgnoredFiles": []string{},
		"ImportMap":   map[string]string{"example.com/p": "example.com/p"},
		"PackageFile": map[string]string{}, "Standard": map[string]bool{},
		"PackageVetx": map[string]string{"example.com/p": pVetx},
		"VetxOnly":    false, "VetxOutput": filepath.Join(dir, "q.vetx"), "Stdout": filepath.Join(dir, "q.stdout"),
	})
	r := command(t, dir, lockvetBin, "-json", q)
	if r.code != 0 {
		t.Fatalf("lockvet on q, importing p's vetx file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "q.vetx")); err != nil {
		t.Errorf("lockvet on q wrote no vetx file: %v", err)
	}

	// q as a package go vet reports on, in-process: nothing in its
	// imports makes a lock operation possible, so it is written the
	// same way, with unitchecker's empty JSON report.
	root := func(name string, vetx map[string]string, lockPkg func(string) bool) (bool, string) {
		t.Helper()
		out := filepath.Join(dir, name+".stdout")
		handled, err := vetTypesOnly(cfg(name+".cfg", map[string]any{
			"ID": "example.com/" + name, "ImportPath": "example.com/" + name, "GoVersion": "go1.22",
			"GoFiles": []string{qSrc}, "ImportMap": map[string]string{"example.com/p": "example.com/p"},
			"PackageVetx": vetx, "VetxOnly": false,
			"VetxOutput": filepath.Join(dir, name+".vetx"), "Stdout": out,
		}), false, lockPkg, true)
		if err != nil {
			t.Fatalf("vetTypesOnly(%s): %v", name, err)
		}
		data, _ := os.ReadFile(out)
		return handled, string(data)
	}
	if handled, out := root("r1", map[string]string{"example.com/p": pVetx}, noLock); !handled || out != "{}\n" {
		t.Errorf("root importing p only: handled %v, stdout %q; want true, \"{}\\n\"", handled, out)
	}
	// The same package when p is a lock package (a client, say), or when
	// p's file holds facts (summaries of lock helpers): unitchecker's.
	isP := func(path string) bool { return path == "example.com/p" }
	if handled, _ := root("r2", map[string]string{"example.com/p": pVetx}, isP); handled {
		t.Errorf("root importing a lock package: handled here, want it left to unitchecker")
	}
	data, err := os.ReadFile(pVetx)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, 0) // one byte of facts
	binary.LittleEndian.PutUint32(data[8:12], 1)
	withFacts := write("pfacts.vetx", string(data))
	if handled, _ := root("r3", map[string]string{"example.com/p": withFacts}, noLock); handled {
		t.Errorf("root importing a package with facts: handled here, want it left to unitchecker")
	}
}
