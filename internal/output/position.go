package output

import (
	"go/token"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"honnef.co/go/tools/sarif"

	"github.com/lockvet/lockvet/internal/findings"
)

// Positions and paths the formats share: columns in UTF-16 code units,
// paths relative to the repository root.

// columnAt is the column of pos where it is reported, as column counts
// it. A //line directive without a column leaves that column unknown (0),
// which SARIF and GitHub do not accept: the column in the file the bytes
// are in stands in for it, since such a directive moves no code within
// its line.
func columnAt(res *findings.Result, fset *token.FileSet, pos token.Pos) int {
	if p := fset.Position(pos); p.Column != 0 {
		return column(res, p)
	}
	return column(res, fset.PositionFor(pos, false))
}

// column is p's column in UTF-16 code units (SARIF's default unit, and
// what editors count), 1-based; token.Position counts bytes.
func column(res *findings.Result, p token.Position) int {
	src := res.Source(p.Filename)
	lineStart := p.Offset - (p.Column - 1)
	if lineStart < 0 || p.Offset > len(src) || !utf8.Valid(src[lineStart:p.Offset]) {
		return p.Column
	}
	n := 0
	for _, r := range string(src[lineStart:p.Offset]) {
		n += utf16.RuneLen(r)
	}
	return n + 1
}

// artifactLocation is filename relative to root, with %SRCROOT% as its
// base, or an absolute file URI when it lies outside root.
func artifactLocation(root, filename string) sarif.ArtifactLocation {
	if rel, ok := relTo(root, filename); ok {
		return sarif.ArtifactLocation{URI: (&url.URL{Path: rel}).String(), URIBaseID: srcRootID}
	}
	return sarif.ArtifactLocation{URI: fileURI(filename)}
}

// relTo is filename relative to root, slash-separated, when it lies
// below root.
func relTo(root, filename string) (string, bool) {
	rel, err := filepath.Rel(root, filename)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// fileURI is the file: URI of an absolute path, without a trailing slash.
func fileURI(path string) string {
	if !filepath.IsAbs(path) {
		return ""
	}
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x
	}
	return strings.TrimSuffix((&url.URL{Scheme: "file", Path: p}).String(), "/")
}

// SrcRoot is the root of the repository containing dir (the nearest
// directory with a .git entry), else dir. Paths in SARIF and GitHub
// annotations are relative to it, as code scanning expects.
func SrcRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
