package main

import (
	"bytes"
	"os"
	"path/filepath"
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
