package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/analyzer"
)

// TestDocsFresh fails when docs/checks.md or README.md's check table no
// longer match the rule descriptors. Fix: go run ./internal/gendocs
func TestDocsFresh(t *testing.T) {
	root := filepath.Join("..", "..")
	got, err := os.ReadFile(filepath.Join(root, checksFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := checksDoc(analyzer.Rules()); !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go run ./internal/gendocs", checksFile)
	}
	readme, err := os.ReadFile(filepath.Join(root, readmeFile))
	if err != nil {
		t.Fatal(err)
	}
	want, err := withTable(readme, analyzer.Rules())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readme, want) {
		t.Errorf("%s check table is stale: run go run ./internal/gendocs", readmeFile)
	}
	for _, r := range analyzer.Rules() {
		want, err := docGo(r, root)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(docGoFile(root, r))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go run ./internal/gendocs", docGoFile(root, r))
		}
	}
}

func TestEveryRuleDocumented(t *testing.T) {
	for _, r := range analyzer.Rules() {
		if r.ID == "" || r.Name == "" || r.Title == "" || r.Why == "" || r.Fix == "" || r.Bad == "" || r.Good == "" || r.Since == "" || r.Severity == "" {
			t.Errorf("%s (%s): descriptor has an empty field: %+v", r.ID, r.Name, r)
		}
	}
}

// TestNotesPointerTrue checks the sentence each check's doc.go may end
// with, "How the check decides where the rule leaves room is described at
// the top of NAME.go", against the file it names, read as text (not
// through hasNotes, whose mistake this would repeat): the sentence must
// name a file of the check's package whose top, between the package
// clause and the first line of code, has a comment block opening with the
// notes marker; and a check whose main file has such a block must point
// to it. It reads both the doc.go on disk and the generator's output.
func TestNotesPointerTrue(t *testing.T) {
	root := filepath.Join("..", "..")
	pointer := regexp.MustCompile(`How the check decides where the rule leaves room is described at the top of (\S+)\.`)
	for _, r := range analyzer.Rules() {
		generated, err := docGo(r, root)
		if err != nil {
			t.Fatal(err)
		}
		onDisk, err := os.ReadFile(docGoFile(root, r))
		if err != nil {
			t.Fatal(err)
		}
		main := r.Name + ".go"
		hasBlock, err := notesAtTop(filepath.Join(root, "passes", r.Name, main))
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range []struct {
			what string
			src  []byte
		}{{docGoFile(root, r), onDisk}, {"gendocs' output for " + r.Name, generated}} {
			f, err := parser.ParseFile(token.NewFileSet(), "doc.go", doc.src, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				t.Fatalf("%s: %v", doc.what, err)
			}
			text := ""
			if f.Doc != nil {
				text = strings.Join(strings.Fields(f.Doc.Text()), " ")
			}
			m := pointer.FindStringSubmatch(text)
			switch {
			case m == nil && hasBlock:
				t.Errorf("%s does not point to the notes at the top of %s", doc.what, main)
			case m == nil:
			case filepath.Base(m[1]) != m[1]:
				t.Errorf("%s points to %s, not a file of its package", doc.what, m[1])
			default:
				ok, err := notesAtTop(filepath.Join(root, "passes", r.Name, m[1]))
				if err != nil {
					t.Errorf("%s points to %s: %v", doc.what, m[1], err)
				} else if !ok {
					t.Errorf("%s says how %s decides is described at the top of %s, but no comment block there opens with %q", doc.what, r.ID, m[1], "// "+notesMarker)
				}
			}
		}
	}
}

// notesAtTop reports whether the file, read line by line, has a comment
// block opening with the notes marker between its package clause and its
// first line that is neither blank nor a // comment.
func notesAtTop(file string) (bool, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return false, err
	}
	lines := strings.Split(string(src), "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "package ") {
		i++
	}
	prev := ""
	for _, l := range lines[min(i+1, len(lines)):] {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "//") {
			break
		}
		if l == "// "+notesMarker && !strings.HasPrefix(prev, "//") {
			return true, nil
		}
		prev = l
	}
	return false, nil
}
