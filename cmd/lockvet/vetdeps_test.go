package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
)

// TestVetTypesOnly: go vet runs lockvet on every dependency, and
// lockvet computes no types for one outside the main module: it writes
// a vetx file with neither types nor facts without reading the
// package's files (internal/vettool), and an importer's types come from
// the compiler's export data, which go vet names in the configuration.
// (What decides, internal/vettool's TestMentions.)
//
// The configuration files are written here as go vet writes them, for
// a module with packages p (it imports time) and q (it imports p), p's
// export data compiled by go list -export.
func TestVetTypesOnly(t *testing.T) {
	t.Parallel()
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		file := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(file), 0o777); err != nil {
			t.Fatal(err)
		}
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
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("p/p.go", `package p

import "time"

type Lock struct{ Key string }

func (l *Lock) Free() {}

func New[K ~string](k K) *Lock { return &Lock{Key: string(k)} }

func Take(key string, ttl time.Duration) bool { return key != "" && ttl > 0 }

const TTL = 3 * time.Second
`)
	list := command(t, dir, "go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", "./p")
	if list.Code != 0 {
		t.Fatalf("go list -export: exit %d\n%s", list.Code, list.Stderr)
	}
	export := map[string]string{}
	for line := range strings.Lines(list.Stdout) {
		path, file, _ := strings.Cut(strings.TrimSpace(line), "=")
		export[path] = file
	}
	const pPath = "example.com/m/p"
	if export[pPath] == "" || export["time"] == "" {
		t.Fatalf("go list -export: no export data for p or time\n%s", list.Stdout)
	}

	// p as a dependency outside the main module: the vetx file holds
	// neither types nor facts, and nothing was read: neither p's Go
	// file nor its import's export data and vetx file exist.
	pVetx := filepath.Join(dir, "p.vetx")
	r := command(t, dir, lockvetBin, "-json", cfg("p.cfg", map[string]any{
		"ID": pPath, "Compiler": "gc", "Dir": filepath.Join(dir, "p"), "ImportPath": pPath, "GoVersion": "go1.22",
		"GoFiles": []string{filepath.Join(dir, "p", "gone.go")}, "NonGoFiles": []string{}, "IgnoredFiles": []string{},
		"ModulePath": "example.com/m", "ModuleVersion": "v1.0.0",
		"ImportMap": map[string]string{"time": "time"}, "PackageFile": map[string]string{},
		"Standard": map[string]bool{"time": true}, "PackageVetx": map[string]string{"time": filepath.Join(dir, "gone.vetx")},
		"VetxOnly": true, "VetxOutput": pVetx, "Stdout": filepath.Join(dir, "p.stdout"),
	}))
	if r.Code != 0 {
		t.Fatalf("lockvet on p as a dependency: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if data, err := os.ReadFile(pVetx); err != nil || string(data) != "vetx\x00\x00\x00\x00\x00\x00\x00\x00" {
		t.Fatalf("p's vetx file: %q, %v; want the header with no types and no facts", data, err)
	}

	qSrc := write("q/q.go", `package q

import "example.com/m/p"

var L = p.New("order:1")

var K string = L.Key

func Run() bool { defer L.Free(); return p.Take(K, p.TTL) }
`)
	q := func(name string, vetx string, flags ...string) (clitest.RunResult, string) {
		t.Helper()
		out := filepath.Join(dir, name+".stdout")
		r := command(t, dir, lockvetBin, append(append([]string{"-json"}, flags...), cfg(name+".cfg", map[string]any{
			"ID": name, "Compiler": "gc", "Dir": filepath.Join(dir, "q"), "ImportPath": "example.com/m/q", "GoVersion": "go1.22",
			"GoFiles": []string{qSrc}, "NonGoFiles": []string{}, "IgnoredFiles": []string{},
			"ModulePath": "example.com/m", "ModuleVersion": "",
			"ImportMap": map[string]string{pPath: pPath}, "PackageFile": map[string]string{pPath: export[pPath]},
			"Standard": map[string]bool{}, "PackageVetx": map[string]string{pPath: vetx},
			"VetxOnly": false, "VetxOutput": filepath.Join(dir, name+".vetx"), "Stdout": out,
		}))...)
		data, _ := os.ReadFile(out)
		return r, string(data)
	}
	// typesIn is the length of the types in a vetx file: the first of
	// the two little-endian uint32s after the magic "vetx".
	typesIn := func(name string) uint32 {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, name+".vetx"))
		if err != nil || len(data) < 12 || string(data[:4]) != "vetx" {
			t.Fatalf("%s.vetx: %v, %q", name, err, data)
		}
		return binary.LittleEndian.Uint32(data[4:8])
	}

	// q reported on, nothing in its imports' types makes a lock
	// operation possible: unitchecker's empty report, no types.
	if r, out := q("q1", pVetx); r.Code != 0 || out != "{}\n" || typesIn("q1") != 0 {
		t.Errorf("q importing p only: exit %d, stdout %q, %d bytes of types; want 0, \"{}\\n\", 0\n%s", r.Code, out, typesIn("q1"), r.Stderr)
	}
	// The same with p declaring a lock wrapper: unitchecker type-checks
	// q against p's types, read from p's export data (and time's types
	// through it), and writes q's.
	r, out := q("q2", pVetx, "-release-funcs="+pPath+".Take:key=0")
	if r.Code != 0 || !strings.HasPrefix(out, "{") || typesIn("q2") == 0 {
		t.Errorf("q importing a wrapper's package: exit %d, stdout %q, %d bytes of types; want 0, JSON, types\n%s", r.Code, out, typesIn("q2"), r.Stderr)
	}
}
