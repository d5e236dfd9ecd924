package tokenfix

import (
	"go/token"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func edit(pos, end token.Pos, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: pos, End: end, NewText: []byte(text)}
}

func TestCoalesce(t *testing.T) {
	// Out of order, a duplicate, and two insertions at one position
	// (joined in the order given).
	got, ok := coalesce([]analysis.TextEdit{
		edit(20, 25, "x"),
		edit(10, 10, "a"),
		edit(20, 25, "x"),
		edit(10, 10, "b"),
		edit(30, token.NoPos, "c"),
	})
	want := []analysis.TextEdit{edit(10, 10, "ab"), edit(20, 25, "x"), edit(30, 30, "c")}
	if !ok || len(got) != len(want) {
		t.Fatalf("coalesce = %v, %v; want %v", got, ok, want)
	}
	for i := range want {
		if got[i].Pos != want[i].Pos || got[i].End != want[i].End || string(got[i].NewText) != string(want[i].NewText) {
			t.Errorf("edit %d = %d-%d %q, want %d-%d %q", i, got[i].Pos, got[i].End, got[i].NewText, want[i].Pos, want[i].End, want[i].NewText)
		}
	}
	// Two different replacements of overlapping text cannot both apply.
	if _, ok := coalesce([]analysis.TextEdit{edit(10, 20, "a"), edit(15, 25, "b")}); ok {
		t.Error("overlapping edits coalesced")
	}
}
