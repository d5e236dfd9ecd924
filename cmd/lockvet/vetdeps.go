package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"

	"golang.org/x/tools/go/gcexportdata"
)

// go vet runs its tool on every package the analysed ones import,
// standard library included (VetxOnly), because the tool's own output
// file (.vetx) is where the next package finds the types and facts of
// its imports. unitchecker type-checks such a package in full, bodies
// included, as it does the packages it reports on: on go-redis v9 that
// is 297 packages for 24 reported, and it made go vet -vettool=lockvet
// cost about as much as go vet itself.
//
// A dependency for which lockvet has no fact to give (factsWanted is
// false: the standard library and other modules' packages) needs only
// its declarations in that file. vetTypesOnly writes it as unitchecker
// would, with no facts, after a type-check that skips function bodies.
// Importers cannot tell the difference: export data holds no bodies.
//
// The same holds for a package go vet asks lockvet to report on, or
// one of the main module, when it cannot hold a lock operation: none
// of the packages its imports' types mention is a client, a lock
// library or the package of a declared wrapper (a call of a client's
// method needs the client's types, so they appear in some import's
// export data), and no import carries a fact (a summary of a lock
// helper). lockvet's checks have nothing to read there, as on the
// cheap path of its own driver; it writes the same empty report
// unitchecker would.

// vetDepConfig is the part of go vet's configuration file that
// vetTypesOnly reads (the format is unitchecker.Config's).
type vetDepConfig struct {
	ImportPath  string
	GoVersion   string
	GoFiles     []string
	ImportMap   map[string]string
	PackageVetx map[string]string
	VetxOnly    bool
	VetxOutput  string
	Stdout      string
	FixArchive  string
}

// vetxMagic and the layout below are unitchecker's vetx file format: the
// magic, two little-endian uint32 lengths, the types (indexed export
// data, as gcexportdata.Write writes it without its leading 'i'), then
// the gob-encoded facts.
const vetxMagic = "vetx"

// vetTypesOnly handles one invocation by go vet, for a package lockvet
// has nothing to report on or export: a dependency with no facts to give
// (dep), or any package whose imports show no lock operation can be in
// it (lockPkg tells the packages that make one possible). It reports
// whether it did (false: let unitchecker do it); the error is a package
// that does not type-check, for which unitchecker exits 1 too.
// jsonOut is whether go vet asked for JSON (-json), which unitchecker
// prints even when there is nothing to report.
func vetTypesOnly(file string, dep bool, lockPkg func(string) bool, jsonOut bool) (bool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return false, nil
	}
	var cfg vetDepConfig
	if json.Unmarshal(data, &cfg) != nil || cfg.VetxOutput == "" || len(cfg.GoFiles) == 0 || cfg.FixArchive != "" || dep && !cfg.VetxOnly {
		return false, nil
	}

	fset := token.NewFileSet()
	imports := make(map[string]*types.Package)
	factsSeen := false
	importer := importerFunc(func(importPath string) (*types.Package, error) {
		path, ok := cfg.ImportMap[importPath]
		if !ok {
			return nil, fmt.Errorf("can't resolve import %q", importPath)
		}
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		if pkg, ok := imports[path]; ok && pkg.Complete() {
			return pkg, nil
		}
		vetx, ok := cfg.PackageVetx[path]
		if !ok {
			return nil, fmt.Errorf("no package vetx file for %q", path)
		}
		exp, facts, err := readVetx(vetx)
		if err != nil {
			return nil, err
		}
		if facts {
			factsSeen = true
		}
		return gcexportdata.Read(bytes.NewReader(exp), fset, imports, path)
	})
	if !dep {
		// Every direct import first: the packages their types mention,
		// and their facts, decide.
		for _, path := range cfg.ImportMap {
			if _, err := importer.Import(path); err != nil {
				return false, nil // unitchecker reports it
			}
		}
		if factsSeen {
			return false, nil
		}
		for path := range imports {
			if lockPkg(path) {
				return false, nil
			}
		}
	}
	if cfg.Stdout != "" {
		f, err := os.Create(cfg.Stdout)
		if err != nil {
			return true, err
		}
		if !cfg.VetxOnly && jsonOut {
			fmt.Fprintln(f, "{}") // unitchecker's JSON tree with nothing in it
		}
		f.Close()
	}
	var files []*ast.File
	for _, name := range cfg.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return true, err
		}
		files = append(files, f)
	}
	conf := types.Config{
		Importer:         importer,
		Sizes:            types.SizesFor("gc", build.Default.GOARCH),
		GoVersion:        cfg.GoVersion,
		IgnoreFuncBodies: true,
	}
	pkg, err := conf.Check(cfg.ImportPath, fset, files, nil)
	if err != nil {
		return true, err
	}

	var buf bytes.Buffer
	buf.WriteString(vetxMagic)
	buf.Write(make([]byte, 8))
	start := buf.Len()
	if err := gcexportdata.Write(&buf, fset, pkg); err != nil {
		return true, err
	}
	out := buf.Bytes()
	out = append(out[:start], out[start+1:]...) // drop Write's 'i'
	binary.LittleEndian.PutUint32(out[4:8], uint32(len(out)-start))
	binary.LittleEndian.PutUint32(out[8:12], 0) // no facts
	return true, os.WriteFile(cfg.VetxOutput, out, 0o666)
}

// readVetx returns the export data in a vetx file, with the leading
// 'i' that gcexportdata.Read expects, and whether the file holds facts
// (unitchecker writes none at all for a package with no facts).
func readVetx(file string) ([]byte, bool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, false, err
	}
	if len(data) < 12 || string(data[:4]) != vetxMagic {
		return nil, false, fmt.Errorf("vetx file %s: bad header", file)
	}
	n := uint64(binary.LittleEndian.Uint32(data[4:8]))
	facts := uint64(binary.LittleEndian.Uint32(data[8:12]))
	if 12+n+facts > uint64(len(data)) {
		return nil, false, fmt.Errorf("vetx file %s: too short", file)
	}
	return append([]byte{'i'}, data[12:12+n]...), facts > 0, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
