package vettool

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/gcexportdata"
)

// go vet runs its tool on every package the analysed ones import,
// standard library included (VetxOnly), because the tool's own output
// file (.vetx) is where unitchecker finds the facts, and (x/tools
// v0.52.0) the types, of a package's imports. unitchecker type-checks
// each such package in full, bodies included, as it does the packages
// it reports on: on go-redis v9 that is 297 packages for 24 reported,
// and it made go vet -vettool=lockvet cost about as much as go vet.
//
// The types are there already: go vet compiles every package it vets,
// dependencies included, and names each import's export data in the
// configuration file (PackageFile). So lockvet computes no types where
// it has no facts to give:
//
//   - A dependency outside the main module (factsWanted false: the
//     standard library and other modules' packages) gets a vetx file
//     with neither types nor facts, written straight after the
//     configuration file is read: no parse, no type-check.
//   - A package go vet asks lockvet to report on, or one of the main
//     module, gets the same (and unitchecker's empty report) when it
//     cannot hold a lock operation: none of the packages its imports'
//     types mention is a client, a lock library or the package of a
//     declared wrapper (a call of a client's method needs the client's
//     types, so they appear in some import's export data), and no
//     import carries a fact (a summary of a lock helper). lockvet's
//     checks have nothing to read there, as on the cheap path of its
//     own driver. The imports' types come from the compiler's export
//     data.
//   - Before unitchecker runs on any other package, lockvet writes, for
//     each import whose vetx file holds no types, one that holds the
//     types read from the compiler's export data and the facts of the
//     original, and hands unitchecker a copy of the configuration that
//     names those files.
//
// A package that does not compile is never vetted (go vet reports the
// compiler's errors instead), so skipping the type-check hides nothing.

// vetConfig is the part of go vet's configuration file that lockvet
// reads before unitchecker does (the format is unitchecker.Config's).
type vetConfig struct {
	ImportPath    string
	GoFiles       []string
	ModulePath    string
	ModuleVersion string
	Module        *struct{ Path, Version string }
	ImportMap     map[string]string
	PackageFile   map[string]string
	PackageVetx   map[string]string
	Standard      map[string]bool
	VetxOnly      bool
	VetxOutput    string
	Stdout        string
	FixArchive    string

	file string          // the configuration file
	raw  json.RawMessage // its contents
}

// readVetConfig reads go vet's configuration file, or returns nil when
// it cannot: unitchecker then says why.
func readVetConfig(file string) *vetConfig {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	cfg := &vetConfig{file: file, raw: data}
	if json.Unmarshal(data, cfg) != nil || len(cfg.GoFiles) == 0 {
		return nil
	}
	if cfg.Module != nil {
		cfg.ModulePath, cfg.ModuleVersion = cfg.Module.Path, cfg.Module.Version
	}
	return cfg
}

// factsWanted reports whether go vet runs lockvet on the package for
// more than its imports' sake: it reports on it, or the package belongs
// to a main module and may export summaries of lock helpers (redisops,
// facts.go). For the standard library and other modules' packages,
// which go vet runs its tool on only so that their importers find
// types and facts (VetxOnly), lockvet has no fact to give.
func (cfg *vetConfig) factsWanted() bool {
	return !cfg.VetxOnly || !cfg.Standard[cfg.ImportPath] && cfg.ModulePath != "" && cfg.ModuleVersion == ""
}

// vetxMagic and the layout below are unitchecker's vetx file format: the
// magic, two little-endian uint32 lengths, the types (indexed export
// data, as gcexportdata.Write writes it without its leading 'i'), then
// the gob-encoded facts.
const vetxMagic = "vetx"

// vetNothing writes what unitchecker writes for a package with no
// finding and no fact, except the types: an empty stdout file (the JSON
// report "{}" when go vet asked for JSON on a package it reports on)
// and a vetx file holding neither types nor facts. Importers find the
// types in the compiler's export data (withImportTypes).
func vetNothing(cfg *vetConfig, jsonOut bool) error {
	if cfg.Stdout != "" {
		var out []byte
		if !cfg.VetxOnly && jsonOut {
			out = []byte("{}\n") // unitchecker's JSON tree with nothing in it
		}
		if err := os.WriteFile(cfg.Stdout, out, 0o666); err != nil {
			return err
		}
	}
	if cfg.VetxOutput == "" {
		return nil
	}
	return os.WriteFile(cfg.VetxOutput, []byte(vetxMagic+"\x00\x00\x00\x00\x00\x00\x00\x00"), 0o666)
}

// vetImports are a package's direct imports, what their vetx files
// hold, and (readTypes) their types, read from the compiler's export
// data.
type vetImports struct {
	paths []string // the direct imports' package paths, sorted
	facts bool     // some import's vetx file holds facts
	// noTypes are the imports (by package path) whose vetx file holds
	// no types: lockvet wrote it (vetNothing).
	noTypes []string

	fset *token.FileSet
	pkgs map[string]*types.Package // every package the read types mention, by path
}

// readVetImports reads the headers of the vetx files of cfg's direct
// imports (PackageVetx); it reads no types.
func readVetImports(cfg *vetConfig) (*vetImports, error) {
	imps := &vetImports{fset: token.NewFileSet(), pkgs: make(map[string]*types.Package)}
	for _, path := range slices.Sorted(maps.Keys(cfg.PackageVetx)) {
		typesLen, factsLen, err := vetxHeader(cfg.PackageVetx[path])
		if err != nil {
			return nil, err
		}
		imps.facts = imps.facts || factsLen > 0
		if typesLen == 0 {
			imps.noTypes = append(imps.noTypes, path)
		}
	}
	paths := make(map[string]bool)
	for _, path := range cfg.ImportMap {
		if path != "unsafe" && path != "C" {
			paths[path] = true
		}
	}
	imps.paths = slices.Sorted(maps.Keys(paths))
	return imps, nil
}

// readTypes reads the types of the imports whose vetx file holds none
// from the compiler's export data (PackageFile), for withImportTypes.
func (imps *vetImports) readTypes(cfg *vetConfig) error {
	for _, path := range imps.noTypes {
		if pkg, ok := imps.pkgs[path]; ok && pkg.Complete() {
			continue
		}
		file, ok := cfg.PackageFile[path]
		if !ok {
			return fmt.Errorf("no export data for %q", path)
		}
		if err := readExportData(imps.fset, imps.pkgs, path, file); err != nil {
			return err
		}
	}
	return nil
}

// mentions reports whether a direct import is, or has types that
// mention, a package for which lockPkg is true: a package whose calls
// lockvet's checks read cannot call a client's method, or a declared
// wrapper, without one.
//
// It reads no types. A package's export data names every package its
// types mention in its table of strings, the first section of the
// compiler's format (exportStrings), so a lookup of each string answers
// for a fraction of the cost of reading the types (on go-redis v9, most
// of the run on a package that imports the client's own package and
// holds no lock operation). The table also holds identifiers and other
// strings, so a string that only looks like such a path says yes too:
// the package is then analysed, as it would have been without the
// table. Export data in another format is read in full.
func (imps *vetImports) mentions(cfg *vetConfig, lockPkg func(string) bool) (bool, error) {
	for _, path := range imps.paths {
		// The package's own path is not in its table (the compiler
		// writes "" for it).
		if lockPkg(path) {
			return true, nil
		}
		file, ok := cfg.PackageFile[path]
		if !ok {
			return false, fmt.Errorf("no export data for %q", path)
		}
		data, err := exportData(file)
		if err != nil {
			return false, fmt.Errorf("reading export data for %q: %v", path, err)
		}
		found, ok := exportStrings(data, lockPkg)
		if !ok {
			pkgs := make(map[string]*types.Package)
			if _, err := gcexportdata.Read(bytes.NewReader(data), token.NewFileSet(), pkgs, path); err != nil {
				return false, err
			}
			found = slices.ContainsFunc(slices.Collect(maps.Keys(pkgs)), lockPkg)
		}
		if found {
			return true, nil
		}
	}
	return false, nil
}

// exportStrings reports whether match is true of a string in the
// table of strings of export data in the compiler's unified format (Go
// 1.20 and later, format versions 0 to 2); ok is false for data in
// another format or version, which the caller then reads in full.
//
// The layout (cmd/compile's pkgbits encoding): 'u'; the version,
// uint32; from version 1 a uint32 of flags; for each of the 10
// sections the index of the end of its last element, uint32; the end
// offset of each element, uint32; the elements' data; an 8-byte
// fingerprint. All integers are little-endian. The strings are the
// elements of the first section, each its bytes.
func exportStrings(data []byte, match func(string) bool) (found, ok bool) {
	const sections, fingerprint = 10, 8
	if len(data) < 1 || data[0] != 'u' {
		return false, false
	}
	data = data[1:]
	u32 := func(i int) (uint32, bool) {
		if i < 0 || i+4 > len(data) {
			return 0, false
		}
		return binary.LittleEndian.Uint32(data[i:]), true
	}
	version, ok := u32(0)
	if !ok || version > 2 {
		return false, false
	}
	off := 4
	if version >= 1 {
		off += 4 // flags
	}
	strs, ok1 := u32(off)
	elems, ok2 := u32(off + 4*(sections-1))
	off += 4 * sections
	if !ok1 || !ok2 || strs > elems || uint64(off)+4*uint64(elems) > uint64(len(data)) {
		return false, false
	}
	ends := data[off : off+4*int(elems)]
	elemData := data[off+4*int(elems):]
	if elems == 0 || uint64(len(elemData)) != uint64(binary.LittleEndian.Uint32(ends[4*(elems-1):]))+fingerprint {
		return false, false
	}
	start := uint32(0)
	for i := range int(strs) {
		end := binary.LittleEndian.Uint32(ends[4*i:])
		if end < start || int(end) > len(elemData) {
			return false, false
		}
		if match(string(elemData[start:end])) {
			return true, true
		}
		start = end
	}
	return false, true
}

// readExportData reads the types of package path from the compiler's
// export data in file into pkgs.
func readExportData(fset *token.FileSet, pkgs map[string]*types.Package, path, file string) error {
	data, err := exportData(file)
	if err != nil {
		return fmt.Errorf("reading export data for %q: %v", path, err)
	}
	_, err = gcexportdata.Read(bytes.NewReader(data), fset, pkgs, path)
	return err
}

// exportData returns the export data in file: the whole file, or, in
// the compiler's archive (what go vet names in PackageFile up to Go
// 1.27 at least), the part of its first member, __.PKGDEF, between the
// "$$B" line that follows the object headers and the end-of-section
// marker. (gcexportdata.NewReader did this until x/tools deprecated
// reading compiler archives; gcexportdata.Read reads the data.)
func exportData(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	const arMagic, arHeader = "!<arch>\n", 60
	var h [len(arMagic) + arHeader]byte
	n, err := io.ReadFull(f, h[:])
	if string(h[:min(n, len(arMagic))]) != arMagic {
		// Not an archive: export data only (cmd/export's output).
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		return io.ReadAll(f)
	}
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(string(h[len(arMagic) : len(arMagic)+16]))
	size, err := strconv.ParseInt(strings.TrimSpace(string(h[len(arMagic)+48:len(arMagic)+58])), 10, 64)
	if name != "__.PKGDEF" || err != nil || size <= 0 {
		return nil, fmt.Errorf("%s: no export data (first archive member %q, size %q)", file, name, h[len(arMagic)+48:len(arMagic)+58])
	}
	member := make([]byte, size)
	if _, err := io.ReadFull(f, member); err != nil {
		return nil, err
	}
	i := bytes.Index(member, []byte("\n$$B\n"))
	data, ok := bytes.CutSuffix(member, []byte("\n$$\n"))
	if i < 0 || !ok || len(data) < i+len("\n$$B\n") {
		return nil, fmt.Errorf("%s: no export data section in __.PKGDEF", file)
	}
	return data[i+len("\n$$B\n"):], nil
}

// withImportTypes writes, next to cfg's file, a vetx file for each
// import whose own holds no types, with the types from imps and the
// original's facts, and a copy of cfg naming them; it returns the
// copy's path, for unitchecker. With no such import it returns cfg's
// own file.
func withImportTypes(cfg *vetConfig, imps *vetImports) (string, error) {
	if len(imps.noTypes) == 0 {
		return cfg.file, nil
	}
	dir := filepath.Dir(cfg.file)
	vetx := make(map[string]string, len(cfg.PackageVetx))
	for path, file := range cfg.PackageVetx {
		vetx[path] = file
	}
	for i, path := range imps.noTypes {
		pkg, ok := imps.pkgs[path]
		if !ok || !pkg.Complete() {
			return "", fmt.Errorf("no export data for %q", path)
		}
		var buf bytes.Buffer
		buf.WriteString(vetxMagic)
		buf.Write(make([]byte, 8))
		start := buf.Len()
		if err := gcexportdata.Write(&buf, imps.fset, pkg); err != nil {
			return "", fmt.Errorf("writing types of %q: %v", path, err)
		}
		out := buf.Bytes()
		out = append(out[:start], out[start+1:]...) // drop Write's 'i'
		binary.LittleEndian.PutUint32(out[4:8], uint32(len(out)-start))
		facts, err := vetxFacts(cfg.PackageVetx[path])
		if err != nil {
			return "", err
		}
		binary.LittleEndian.PutUint32(out[8:12], uint32(len(facts)))
		out = append(out, facts...)
		vetx[path] = filepath.Join(dir, "lockvet-import"+strconv.Itoa(i)+".vetx")
		if err := os.WriteFile(vetx[path], out, 0o666); err != nil {
			return "", err
		}
	}

	var fields map[string]json.RawMessage
	if err := json.Unmarshal(cfg.raw, &fields); err != nil {
		return "", err
	}
	data, err := json.Marshal(vetx)
	if err != nil {
		return "", err
	}
	fields["PackageVetx"] = data
	if data, err = json.Marshal(fields); err != nil {
		return "", err
	}
	file := filepath.Join(dir, "lockvet.cfg")
	return file, os.WriteFile(file, data, 0o666)
}

// vetxHeader returns the lengths of the types and of the facts in a
// vetx file, from its header.
func vetxHeader(file string) (typesLen, factsLen uint32, err error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	var h [12]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:4]) != vetxMagic {
		return 0, 0, fmt.Errorf("vetx file %s: bad header", file)
	}
	return binary.LittleEndian.Uint32(h[4:8]), binary.LittleEndian.Uint32(h[8:12]), nil
}

// vetxFacts returns the facts in a vetx file.
func vetxFacts(file string) ([]byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(data) < 12 || string(data[:4]) != vetxMagic {
		return nil, fmt.Errorf("vetx file %s: bad header", file)
	}
	n := uint64(binary.LittleEndian.Uint32(data[4:8]))
	facts := uint64(binary.LittleEndian.Uint32(data[8:12]))
	if 12+n+facts > uint64(len(data)) {
		return nil, fmt.Errorf("vetx file %s: too short", file)
	}
	return data[12+n : 12+n+facts], nil
}
