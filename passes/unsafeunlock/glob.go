package unsafeunlock

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/constval"
)

// globItem is one element of a Redis glob pattern (the KEYS/SCAN MATCH
// syntax): *, ?, a [class], or a literal character.
type globItem struct {
	star, any bool
	class     []classRange // for a [class]
	negate    bool
	lit       rune
}

type classRange struct{ lo, hi rune }

func (g globItem) matches(r rune) bool {
	switch {
	case g.any:
		return true
	case g.class != nil:
		in := false
		for _, c := range g.class {
			in = in || c.lo <= r && r <= c.hi
		}
		return in != g.negate
	}
	return g.lit == r
}

// parseGlob parses s as a pattern; ok is false when s has no
// metacharacter (*, ?, or a closed [class]).
func parseGlob(s string) ([]globItem, bool) {
	var items []globItem
	meta := false
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; r {
		case '*':
			items = append(items, globItem{star: true})
			meta = true
		case '?':
			items = append(items, globItem{any: true})
			meta = true
		case '\\':
			if i+1 < len(rs) {
				i++
			}
			items = append(items, globItem{lit: rs[i]})
		case '[':
			end := -1
			for j := i + 1; j < len(rs); j++ {
				if rs[j] == '\\' {
					j++
					continue
				}
				if rs[j] == ']' && j > i+1 {
					end = j
					break
				}
			}
			if end < 0 {
				items = append(items, globItem{lit: r})
				continue
			}
			g := globItem{class: []classRange{}}
			j := i + 1
			if rs[j] == '^' {
				g.negate = true
				j++
			}
			for ; j < end; j++ {
				c := rs[j]
				if c == '\\' && j+1 < end {
					j++
					c = rs[j]
				}
				if j+2 < end && rs[j+1] == '-' {
					lo, hi := c, rs[j+2]
					if lo > hi {
						lo, hi = hi, lo
					}
					g.class = append(g.class, classRange{lo, hi})
					j += 2
					continue
				}
				g.class = append(g.class, classRange{c, c})
			}
			items = append(items, g)
			meta = true
			i = end
		default:
			items = append(items, globItem{lit: r})
		}
	}
	return items, meta
}

// literalGlob is s read as a key: every character literal.
func literalGlob(s string) []globItem {
	items := make([]globItem, 0, utf8.RuneCountInString(s))
	for _, r := range s {
		items = append(items, globItem{lit: r})
	}
	return items
}

// part is one element of a key's shape: a known character, or a hole for
// a part computed at run time.
type part struct {
	hole bool
	r    rune
}

// skeleton is the shape of an acquired key: constant text with holes for
// what is computed at run time ("lock:" + id, fmt.Sprintf("lock:%d", id)).
// It is nil when the key has no constant text.
func skeleton(info *types.Info, e ast.Expr) []part {
	sk := shape(info, e)
	for _, p := range sk {
		if !p.hole {
			return sk
		}
	}
	return nil
}

func shape(info *types.Info, e ast.Expr) []part {
	e = ast.Unparen(e)
	if s := constval.String(info, e); s != nil {
		return lits(*s)
	}
	switch e := e.(type) {
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			return append(shape(info, e.X), shape(info, e.Y)...)
		}
	case *ast.CallExpr:
		if fn, ok := typeutil.Callee(info, e).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && fn.Name() == "Sprintf" && len(e.Args) > 0 {
			if f := constval.String(info, e.Args[0]); f != nil {
				return formatShape(*f)
			}
		}
	}
	return []part{{hole: true}}
}

func lits(s string) []part {
	ps := make([]part, 0, len(s))
	for _, r := range s {
		ps = append(ps, part{r: r})
	}
	return ps
}

// formatShape turns a Printf format into a shape: each verb is a hole.
func formatShape(f string) []part {
	var ps []part
	rs := []rune(f)
	for i := 0; i < len(rs); i++ {
		if rs[i] != '%' {
			ps = append(ps, part{r: rs[i]})
			continue
		}
		if i+1 < len(rs) && rs[i+1] == '%' {
			ps = append(ps, part{r: '%'})
			i++
			continue
		}
		// Flags, width, precision and argument indexes, then the verb.
		i++
		for i < len(rs) && strings.ContainsRune("+-# 0123456789.*[]", rs[i]) {
			i++
		}
		ps = append(ps, part{hole: true})
	}
	return ps
}

// overlaps reports whether some key of shape sk matches pattern p.
func overlaps(p []globItem, sk []part) bool {
	memo := map[[2]int]bool{}
	var m func(i, j int) bool
	m = func(i, j int) bool {
		k := [2]int{i, j}
		if v, ok := memo[k]; ok {
			return v
		}
		memo[k] = false // no cycles: every step consumes something
		var r bool
		switch {
		case i == len(p) && j == len(sk):
			r = true
		case i < len(p) && p[i].star:
			r = m(i+1, j) || j < len(sk) && m(i, j+1)
		case j < len(sk) && sk[j].hole:
			r = m(i, j+1) || i < len(p) && m(i+1, j)
		case i < len(p) && j < len(sk):
			r = p[i].matches(sk[j].r) && m(i+1, j+1)
		}
		memo[k] = r
		return r
	}
	return m(0, 0)
}
