package clitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMarkersUnknownID: a marker of a check the registry does not know
// fails the run that reads it, and the others are still read.
func TestMarkersUnknownID(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nfunc f() {} // LV101: registered\n\nfunc g() {} // LV999: dropped from the registry\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadMarkers(dir, MarkerSet{}); err == nil || !strings.Contains(err.Error(), "p.go:5: marker LV999 names no registered check") {
		t.Errorf("ReadMarkers with an LV999 marker: err = %v", err)
	}
	if ms, err := ReadMarkers(dir, MarkerSet{Under: "none"}); err != nil || len(ms) != 0 {
		t.Errorf("ReadMarkers of no file: %v, %v", ms, err)
	}
}
