package tokenfix

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/redisops"
)

// A nested helper pair: Unlock is called in a function R where no Lock
// token is in scope, and R's callers took the lock through a function A
// that calls Lock (a service's acquireX/releaseX around a repository's
// AcquireX/ReleaseX). A and R are a helper pair one level up: they have
// the same receiver type (or are both functions of one package), A calls
// Lock once and Unlock never, R calls Lock never, and A has a result
// that tells its caller whether it holds the lock. The fix threads the
// token through them too, the way it threads it through the pair:
//
//   - A keeps Lock's token and returns it as an added result (where the
//     pair's Lock returns it); a return before the call of Lock returns
//     "" (no lock was taken: Unlock's compare-and-delete with "" deletes
//     nothing), a return after it the token;
//   - R takes the token as an added parameter and passes it to Unlock;
//   - A's and R's callers are edited as the pair's are, by the same
//     rules, and only one level up: an R whose callers have no A token in
//     scope keeps the reason.

// nested is a helper pair one level up, found in unit u.
type nested struct {
	u     *unit
	a, r  *ast.FuncDecl
	lc    *lockCall // the call of Lock in A
	rName string    // R's token parameter
	q     *pair     // A and R as a pair, for their callers
}

// nestedRelease is the token parameter that R (uc's function) gets when
// R and a function of u that calls Lock are a helper pair one level up,
// or "".
func (p *pair) nestedRelease(u *unit, uc *unlockCall, locks []*lockCall, unlocks []*unlockCall) string {
	if p.depth > 0 || uc.renew {
		return ""
	}
	r := uc.decl
	if r == p.ldecl || r == p.udecl || r.Body == nil {
		return ""
	}
	for _, n := range p.nests {
		if n.u == u && n.r == r {
			return n.rName
		}
	}
	rfn, _ := u.info.Defs[r.Name].(*types.Func)
	if rfn == nil || generic(rfn) {
		return ""
	}
	releases := map[*ast.FuncDecl]bool{}
	for _, o := range unlocks {
		releases[o.decl] = true
	}
	var a *lockCall
	for _, lc := range locks {
		if lc.decl == r {
			return ""
		}
		afn, _ := u.info.Defs[lc.decl.Name].(*types.Func)
		if afn == nil || releases[lc.decl] || !sameHome(afn, rfn) {
			continue
		}
		if a != nil {
			// Two calls of Lock: which one R's callers hold is not known.
			return ""
		}
		a = lc
	}
	if a == nil || a.decl == p.ldecl || a.decl == p.udecl || a.decl.Body == nil {
		return ""
	}
	afn := u.info.Defs[a.decl.Name].(*types.Func)
	if generic(afn) || !gates(afn) {
		return ""
	}
	for _, n := range p.nests {
		if n.a == a.decl {
			// One A, two Rs.
			return ""
		}
	}
	name := freeName(u, r, r.Body.Lbrace+1, nil)
	if name == "" {
		return ""
	}
	a.used = true
	p.nests = append(p.nests, &nested{u: u, a: a.decl, r: r, lc: a, rName: name})
	return name
}

// sameHome reports whether a and r are methods of one type, or functions
// of one package.
func sameHome(a, r *types.Func) bool {
	ra, rr := redisops.RecvType(a), redisops.RecvType(r)
	if ra == nil || rr == nil {
		return ra == nil && rr == nil && a.Signature().Recv() == nil && r.Signature().Recv() == nil && a.Pkg() == r.Pkg()
	}
	return ra == rr
}

func generic(fn *types.Func) bool {
	return fn.Signature().TypeParams().Len() > 0 || fn.Signature().RecvTypeParams().Len() > 0
}

// gates reports whether fn's results tell its caller whether it got the
// lock: a bool or an error among unnamed results.
func gates(fn *types.Func) bool {
	res := fn.Signature().Results()
	if res.Len() == 0 || res.At(0).Name() != "" {
		return false
	}
	for i := range res.Len() {
		t := res.At(i).Type()
		if isError(t) || types.Identical(t.Underlying(), types.Typ[types.Bool]) {
			return true
		}
	}
	return false
}

// nestEdits changes A's results and returns and R's parameters, once
// the call of Lock in A has its token's name.
func (p *pair) nestEdits(n *nested) string {
	u := n.u
	afn := u.info.Defs[n.a.Name].(*types.Func)
	rfn := u.info.Defs[n.r.Name].(*types.Func)
	q := &pair{ldecl: n.a, udecl: n.r, lfn: afn, ufn: rfn, lName: n.lc.name, inner: n.lc, depth: p.depth + 1}
	q.n = afn.Signature().Results().Len()
	q.k = q.n
	if isError(afn.Signature().Results().At(q.n - 1).Type()) {
		q.k = q.n - 1
	}
	if why := q.lockEdits(u, ""); why != "" {
		return why
	}
	q.uIndex = q.addParam(n.r, rfn.Signature(), n.rName)
	p.edits = append(p.edits, q.edits...)
	q.edits = nil
	n.q = q
	return ""
}

// nestCallers edits the callers of the nested pairs: in units when the
// fix already edits the whole module (the interface fix), else in the
// pass's package and the packages pairCallers gives for them.
func (p *pair) nestCallers(units []*unit, quals []string, whole bool) string {
	done := map[string]bool{}
	for _, n := range p.nests {
		q := n.q
		at := n.u.fset.Position(n.a.Pos())
		k := fmt.Sprintf("%s:%d", at.Filename, at.Line)
		if done[k] {
			continue
		}
		done[k] = true
		us, qs := units, quals
		if !whole {
			if q.lfn.Pkg().Path() != p.pass.Pkg.Path() {
				if q.lfn.Exported() || q.ufn.Exported() {
					return fmt.Sprintf("%s's %s is exported and not every caller is loaded", q.lfn.Pkg().Name(), q.lfn.Name())
				}
				us, qs = nil, nil
				for i, u := range units {
					if u.pkg.Path() == q.lfn.Pkg().Path() {
						us, qs = append(us, u), append(qs, quals[i])
					}
				}
			} else {
				others, why := pairCallers(p.pass, p.mod, q.lfn, q.ufn)
				if why != "" {
					return why
				}
				us, qs = []*unit{unitOf(p.pass)}, []string{""}
				for _, mp := range others {
					us = append(us, &unit{fset: mp.Fset, info: mp.Info, pkg: mp.Types, files: mp.Files, read: os.ReadFile})
					qual := ""
					if mp.Types.Path() != q.lfn.Pkg().Path() {
						qual = mp.Types.Name() + "."
					}
					qs = append(qs, qual)
				}
			}
		}
		match := func(o types.Object) (bool, bool) { return sameFunc(o, q.lfn), sameFunc(o, q.ufn) }
		for i, u := range us {
			q.qual = qs[i]
			if why := q.callerEdits(u, match); why != "" {
				return why
			}
		}
		p.edits = append(p.edits, q.edits...)
		q.edits = nil
	}
	return ""
}

// wrappersOf are the functions of the pass's package that call lfn or
// ufn.
func wrappersOf(pass *analysis.Pass, lfn, ufn *types.Func) map[*types.Func]bool {
	out := map[*types.Func]bool{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil || fn == lfn || fn == ufn {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					if cf := typeutil.StaticCallee(pass.TypesInfo, c); cf != nil && (cf.Origin() == lfn || cf.Origin() == ufn) {
						out[fn] = true
					}
				}
				return !out[fn]
			})
		}
	}
	return out
}
