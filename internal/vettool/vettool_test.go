package vettool

import (
	"bytes"
	"encoding/binary"
	"flag"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/gcexportdata"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
)

func TestIsVetInvocation(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"-json", "-checks=LV101", "/tmp/go-build1/b001/vet.cfg"}, true},
		{[]string{"./..."}, false},
		{[]string{"-V"}, false},
		{[]string{"-C", "testdata", "./..."}, false},
		{nil, false},
	} {
		if got := IsInvocation(tc.args); got != tc.want {
			t.Errorf("IsInvocation(%q) = %v", tc.args, got)
		}
	}
}

func TestPickFlags(t *testing.T) {
	var cf driver.ConfigFlags
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	cf.Register(fs)
	args := []string{"-json", "-checks", "LV101", "-setnxexpire=false", "--redis-version=8.4", "-include-generated", "-disable=LV102", "-c", "1", "vet.cfg"}
	got := pickFlags(fs, args)
	want := []string{"-checks", "LV101", "--redis-version=8.4", "-include-generated", "-disable=LV102"}
	if !slices.Equal(got, want) {
		t.Fatalf("pickFlags = %q, want %q", got, want)
	}
	if err := fs.Parse(got); err != nil {
		t.Fatal(err)
	}
	if cf.RedisVersion != "8.4" || !cf.IncludeGenerated || !slices.Equal(cf.Checks, []string{"LV101"}) || !slices.Equal(cf.Disable, []string{"LV102"}) {
		t.Errorf("config = %+v", cf)
	}
}

// TestMentions: what decides whether a package is analysed are the
// packages its imports' types mention (their export data's strings), time
// included, and whether an import's vetx file holds facts.
func TestMentions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clitest.WriteFiles(t, dir, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"p/p.go": "package p\n\nimport \"time\"\n\nfunc Take(key string, ttl time.Duration) bool { return key != \"\" && ttl > 0 }\n",
	})
	list := clitest.Command(t, dir, nil, "go", "list", "-export", "-f", "{{.Export}}", "./p")
	if list.Code != 0 {
		t.Fatalf("go list -export: exit %d\n%s", list.Code, list.Stderr)
	}
	const pPath = "example.com/m/p"
	pVetx := filepath.Join(dir, "p.vetx")
	if err := os.WriteFile(pVetx, []byte(vetxMagic+"\x00\x00\x00\x00\x00\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	vc := &vetConfig{
		ImportMap: map[string]string{pPath: pPath}, PackageFile: map[string]string{pPath: strings.TrimSpace(list.Stdout)},
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
	vc.PackageVetx[pPath] = filepath.Join(dir, "pfacts.vetx")
	if err := os.WriteFile(vc.PackageVetx[pPath], data, 0o644); err != nil {
		t.Fatal(err)
	}
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
	list := clitest.Command(t, ".", nil, "go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}",
		"github.com/redis/go-redis/v9", "net/http", "go/types")
	if list.Code != 0 {
		t.Fatalf("go list -export: exit %d\n%s", list.Code, list.Stderr)
	}
	read := 0
	for line := range strings.Lines(list.Stdout) {
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
		t.Errorf("go list -export gave export data for %d packages; want the dependencies of go-redis, net/http and go/types\n%s", read, list.Stdout)
	}
}
