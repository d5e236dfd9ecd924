package applyfix

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	for _, tc := range []struct {
		name, new, want string
	}{
		{"equal", old, ""},
		{"one change", strings.Replace(old, "g\n", "G\n", 1), `--- a/f.go
+++ b/f.go
@@ -4,7 +4,7 @@
 d
 e
 f
-g
+G
 h
 i
 j
`},
		{"two hunks", strings.NewReplacer("b\n", "", "m\n", "m\nM\n").Replace(old), `--- a/f.go
+++ b/f.go
@@ -1,5 +1,4 @@
 a
-b
 c
 d
 e
@@ -11,4 +10,5 @@
 k
 l
 m
+M
 n
`},
		{"merged hunk", strings.NewReplacer("c\n", "C\n", "j\n", "J\n").Replace(old), `--- a/f.go
+++ b/f.go
@@ -1,13 +1,13 @@
 a
 b
-c
+C
 d
 e
 f
 g
 h
 i
-j
+J
 k
 l
 m
`},
		{"insert at start", "0\n" + old, `--- a/f.go
+++ b/f.go
@@ -1,3 +1,4 @@
+0
 a
 b
 c
`},
		{"no newline at end", strings.TrimSuffix(old, "\n"), `--- a/f.go
+++ b/f.go
@@ -11,4 +11,4 @@
 k
 l
 m
-n
+n
\ No newline at end of file
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := UnifiedDiff("f.go", []byte(old), []byte(tc.new)); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestUnifiedDiffEmpty(t *testing.T) {
	if got, want := UnifiedDiff("f.go", nil, []byte("x\n")), "--- a/f.go\n+++ b/f.go\n@@ -0,0 +1,1 @@\n+x\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := UnifiedDiff("f.go", []byte("x\n"), nil), "--- a/f.go\n+++ b/f.go\n@@ -1,1 +0,0 @@\n-x\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestDiffLines checks on random inputs that the edit script turns a
// into b and is as short as the longest common subsequence allows.
func TestDiffLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func() []string {
		s := make([]string, rng.IntN(12))
		for i := range s {
			s[i] = string(rune('a' + rng.IntN(4)))
		}
		return s
	}
	for range 2000 {
		a, b := gen(), gen()
		ops := diffLines(a, b)
		var gotA, gotB []string
		edits := 0
		for _, op := range ops {
			if op.kind != '+' {
				gotA = append(gotA, op.line)
			}
			if op.kind != '-' {
				gotB = append(gotB, op.line)
			}
			if op.kind != ' ' {
				edits++
			}
		}
		if strings.Join(gotA, ",") != strings.Join(a, ",") || strings.Join(gotB, ",") != strings.Join(b, ",") {
			t.Fatalf("diff(%q, %q) = %v does not reproduce the inputs", a, b, ops)
		}
		if want := len(a) + len(b) - 2*lcs(a, b); edits != want {
			t.Fatalf("diff(%q, %q) has %d edits, want %d", a, b, edits, want)
		}
	}
}

func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}
