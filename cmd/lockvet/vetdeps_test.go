package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/gcexportdata"
)

// TestVetTypesOnly: go vet runs lockvet on every dependency, and
// lockvet computes no types for one outside the main module: it writes
// a vetx file with neither types nor facts without reading the
// package's files (vetdeps.go), and an importer's types come from the
// compiler's export data, which go vet names in the configuration.
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
	if list.code != 0 {
		t.Fatalf("go list -export: exit %d\n%s", list.code, list.stderr)
	}
	export := map[string]string{}
	for line := range strings.Lines(list.stdout) {
		path, file, _ := strings.Cut(strings.TrimSpace(line), "=")
		export[path] = file
	}
	const pPath = "example.com/m/p"
	if export[pPath] == "" || export["time"] == "" {
		t.Fatalf("go list -export: no export data for p or time\n%s", list.stdout)
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
	if r.code != 0 {
		t.Fatalf("lockvet on p as a dependency: exit %d\n%s%s", r.code, r.stdout, r.stderr)
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
	q := func(name string, vetx string, flags ...string) (runResult, string) {
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
	typesIn := func(name string) uint32 {
		t.Helper()
		n, _, _ := vetxHeader(filepath.Join(dir, name+".vetx"))
		return n
	}

	// q reported on, nothing in its imports' types makes a lock
	// operation possible: unitchecker's empty report, no types.
	if r, out := q("q1", pVetx); r.code != 0 || out != "{}\n" || typesIn("q1") != 0 {
		t.Errorf("q importing p only: exit %d, stdout %q, %d bytes of types; want 0, \"{}\\n\", 0\n%s", r.code, out, typesIn("q1"), r.stderr)
	}
	// The same with p declaring a lock wrapper: unitchecker type-checks
	// q against p's types, read from p's export data (and time's types
	// through it), and writes q's.
	r, out := q("q2", pVetx, "-release-funcs="+pPath+".Take:key=0")
	if r.code != 0 || !strings.HasPrefix(out, "{") || typesIn("q2") == 0 {
		t.Errorf("q importing a wrapper's package: exit %d, stdout %q, %d bytes of types; want 0, JSON, types\n%s", r.code, out, typesIn("q2"), r.stderr)
	}

	// What decides: the packages the imports' types mention, time
	// included, and the imports' facts.
	vc := &vetConfig{
		ImportMap: map[string]string{pPath: pPath}, PackageFile: map[string]string{pPath: export[pPath]},
		PackageVetx: map[string]string{pPath: pVetx},
	}
	imps, err := readVetImports(vc)
	if err != nil {
		t.Fatal(err)
	}
	mentions := func(path string) bool {
		t.Helper()
		yes, err := imps.mentions(vc, func(p string) bool { return p == path })
		if err != nil {
			t.Fatal(err)
		}
		return yes
	}
	if imps.facts || mentions("context") || !mentions("time") || !mentions(pPath) {
		t.Errorf("p's export data: facts %v, mentions context %v, time %v, p %v; want false, false, true, true",
			imps.facts, mentions("context"), mentions("time"), mentions(pPath))
	}
	data, err := os.ReadFile(pVetx)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, 0) // one byte of facts
	binary.LittleEndian.PutUint32(data[8:12], 1)
	vc.PackageVetx[pPath] = write("pfacts.vetx", string(data))
	if imps, err := readVetImports(vc); err != nil || !imps.facts {
		t.Errorf("an import's vetx file with facts: facts %v, %v; want true", imps != nil && imps.facts, err)
	}
}

// TestExportStrings: the table of strings of the compiler's export data
// names every package the types mention (what mentions relies on to
// read no types), on the standard library's and go-redis's packages as
// this Go compiles them; data in another format, or cut short, is not
// read as a table.
func TestExportStrings(t *testing.T) {
	t.Parallel()
	list := command(t, ".", "go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}",
		"github.com/redis/go-redis/v9", "net/http", "go/types")
	if list.code != 0 {
		t.Fatalf("go list -export: exit %d\n%s", list.code, list.stderr)
	}
	read := 0
	for line := range strings.Lines(list.stdout) {
		path, file, _ := strings.Cut(strings.TrimSpace(line), "=")
		if file == "" || path == "unsafe" {
			continue
		}
		data, err := exportData(file)
		if err != nil {
			t.Fatal(err)
		}
		pkgs := map[string]*types.Package{}
		if _, err := gcexportdata.Read(bytes.NewReader(data), token.NewFileSet(), pkgs, path); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for mentioned := range pkgs {
			if mentioned == path {
				continue
			}
			if found, ok := exportStrings(data, func(s string) bool { return s == mentioned }); !found || !ok {
				t.Errorf("%s: the export data's strings: %q found %v, format read %v; want true, true", path, mentioned, found, ok)
			}
		}
		if found, ok := exportStrings(data, func(s string) bool { return s == "example.com/no/such/package" }); found || !ok {
			t.Errorf("%s: a path the types do not mention: found %v, format read %v; want false, true", path, found, ok)
		}
		for _, n := range []int{0, 1, 5, 30, len(data) / 2, len(data) - 1} {
			if _, ok := exportStrings(data[:n], func(string) bool { return false }); ok {
				t.Errorf("%s: export data cut to %d of %d bytes read as a table", path, n, len(data))
			}
		}
		if path == "net/http" {
			var buf bytes.Buffer
			pkg := pkgs[path]
			if err := gcexportdata.Write(&buf, token.NewFileSet(), pkg); err != nil {
				t.Fatal(err)
			}
			if _, ok := exportStrings(buf.Bytes(), func(string) bool { return true }); ok {
				t.Errorf("indexed export data (%q...) read as the unified format's table", buf.Bytes()[:1])
			}
		}
		read++
	}
	if read < 50 {
		t.Errorf("go list -export gave export data for %d packages; want the dependencies of go-redis, net/http and go/types\n%s", read, list.stdout)
	}
}
