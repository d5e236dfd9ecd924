package clitest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ShiftAll inserts lines at the top of every function of every Go file
// with a marker and after its imports, so that every finding moves down.
func ShiftAll(t testing.TB, dir string) {
	t.Helper()
	files := map[string]bool{}
	for _, m := range Markers(t, dir, MarkerSet{Generated: true}) {
		files[m.File] = true
	}
	for file := range files {
		path := filepath.Join(dir, filepath.FromSlash(file))
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		inImports := false
		for line := range strings.Lines(string(src)) {
			out.WriteString(line)
			switch {
			case strings.HasPrefix(line, "import ("):
				inImports = true
			case inImports && line == ")\n":
				inImports = false
				out.WriteString("\n// Added above everything.\nvar _ = 0\n")
			case strings.HasPrefix(line, "func ") && strings.HasSuffix(line, "{\n"):
				out.WriteString("\t// added at the top of the function\n\n")
			}
		}
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
