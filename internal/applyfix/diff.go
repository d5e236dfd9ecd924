package applyfix

import (
	"fmt"
	"slices"
	"strings"
)

// diffOp is one line of an edit script: ' ' kept, '-' deleted, '+' added.
type diffOp struct {
	kind byte
	line string // with its newline, if it has one
}

// splitLines splits s after each newline.
func splitLines(s []byte) []string {
	lines := slices.Collect(strings.SplitAfterSeq(string(s), "\n"))
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines returns a shortest edit script turning a into b.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for _, l := range a[:pre] {
		ops = append(ops, diffOp{' ', l})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}

// myers is Myers' O(ND) difference algorithm ("An O(ND) Difference
// Algorithm and Its Variations", 1986), keeping the V array of every
// round to walk the path back.
func myers(a, b []string) []diffOp {
	n, m := len(a), len(b)
	off := n + m + 1
	v := make([]int, 2*off+1)
	var trace [][]int
	found := false
	for d := 0; d <= n+m && !found; d++ {
		trace = append(trace, slices.Clone(v))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // down: insert b[y]
			} else {
				x = v[off+k-1] + 1 // right: delete a[x]
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	var rev []diffOp
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		v := trace[d]
		k := x - y
		prevK := k - 1
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			prevK = k + 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			rev = append(rev, diffOp{' ', a[x-1]})
			x, y = x-1, y-1
		}
		if d == 0 {
			break
		}
		if x == prevX {
			rev = append(rev, diffOp{'+', b[y-1]})
			y--
		} else {
			rev = append(rev, diffOp{'-', a[x-1]})
			x--
		}
	}
	slices.Reverse(rev)
	return rev
}

// UnifiedDiff returns the unified diff (3 lines of context) turning old
// into new, with git-style a/ and b/ names, or "" when they are equal.
func UnifiedDiff(name string, old, new []byte) string {
	ops := diffLines(splitLines(old), splitLines(new))
	// aAt[i], bAt[i]: 0-based line index in old/new before ops[i].
	aAt, bAt := make([]int, len(ops)+1), make([]int, len(ops)+1)
	for i, op := range ops {
		aAt[i+1], bAt[i+1] = aAt[i], bAt[i]
		if op.kind != '+' {
			aAt[i+1]++
		}
		if op.kind != '-' {
			bAt[i+1]++
		}
	}
	const context = 3
	var out strings.Builder
	for i := 0; i < len(ops); {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		last := i // last change in this hunk
		for j := i; j < len(ops) && j-last <= 2*context+1; j++ {
			if ops[j].kind != ' ' {
				last = j
			}
		}
		start, stop := max(0, i-context), min(len(ops), last+context+1)
		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", name, name)
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aAt[start], aAt[stop]), hunkRange(bAt[start], bAt[stop]))
		for _, op := range ops[start:stop] {
			out.WriteByte(op.kind)
			out.WriteString(op.line)
			if !strings.HasSuffix(op.line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return out.String()
}

// hunkRange formats lines [from, to) (0-based) as "start,count"; an empty
// range names the line before it.
func hunkRange(from, to int) string {
	if to == from {
		return fmt.Sprintf("%d,0", from)
	}
	return fmt.Sprintf("%d,%d", from+1, to-from)
}
