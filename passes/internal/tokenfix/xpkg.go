package tokenfix

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/redisops"
)

// A caller, in another package of the module, of a Lock/Unlock helper
// pair whose value every holder shares (LockWithRedis(id) writing id,
// UnLockWithRedis(id) deleting by a bare DEL): its acquire a is a call of
// Lock, and its release a call of Unlock. The token can only be made in
// Lock and taken by Unlock; the pair's own fix (LV201's at Unlock's DEL,
// built in the pair's package) does that and edits this caller too. When
// the host recorded the pair's package (lvconfig.Module.SetAnalyzed, the
// lockvet command) and that fix rewrites both of the caller's calls, it
// is the caller's fix as well: the same plan, so the same edits, applied
// once under -fix.

// viaPlan is that fix for a, a call of a helper of another package, or
// nil.
func viaPlan(pass *analysis.Pass, res *redisops.Result, a *redisops.Op, opts redisops.ReleaseOptions, mod *lvconfig.Module) *Plan {
	if mod == nil || a.Via == nil || a.Func == nil || len(a.Keys) != 1 {
		return nil
	}
	lfn := typeutil.StaticCallee(pass.TypesInfo, a.Call)
	if lfn == nil || lfn.Pkg() == nil || lfn.Pkg() == pass.Pkg {
		return nil
	}
	an, _ := mod.Analyzed(lfn.Pkg()).(*redisops.Analyzed)
	if an == nil || an.Pass.Fset != pass.Fset {
		return nil
	}
	// The caller's release: a call of the pair's Unlock on the same key.
	var d *redisops.Op
	for _, o := range res.Ops {
		if o.Kind != redisops.Delete || o.Via == nil || o.Call.Pos() < a.Call.End() || o.Call.End() > a.Func.Node.End() || len(o.Keys) != 1 || !keyid.Same(a.KeyForm(), o.FormOf(o.Keys[0])) {
			continue
		}
		if ufn := typeutil.StaticCallee(pass.TypesInfo, o.Call); ufn == nil || ufn.Pkg() != lfn.Pkg() {
			return nil
		}
		if d != nil {
			return nil
		}
		d = o
	}
	if d == nil {
		return nil
	}
	// The acquire in Lock itself.
	var ha *redisops.Op
	for _, o := range an.Res.Ops {
		if o.Kind != redisops.Acquire || o.Via != nil || o.Func == nil {
			continue
		}
		decl, ok := o.Func.Node.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if fn, _ := an.Pass.TypesInfo.Defs[decl.Name].(*types.Func); fn == nil || !sameFunc(lfn.Origin(), fn) {
			continue
		}
		if ha != nil {
			return nil
		}
		ha = o
	}
	if ha == nil {
		return nil
	}
	p := For(an.Pass, an.Res, ha, opts, mod)
	if !p.OK || !touches(p.Fix.TextEdits, stmtOf(a)) || !touches(p.Fix.TextEdits, d.Call) {
		return nil
	}
	return p
}

// stmtOf is the innermost statement that holds o's call.
func stmtOf(o *redisops.Op) ast.Node {
	for c := range o.Cursor.Enclosing() {
		if s, ok := c.Node().(ast.Stmt); ok {
			return s
		}
	}
	return o.Call
}

// touches reports whether an edit changes n's text or inserts within it.
func touches(edits []analysis.TextEdit, n ast.Node) bool {
	for _, e := range edits {
		end := max(e.End, e.Pos)
		if e.Pos <= n.End() && end >= n.Pos() {
			return true
		}
	}
	return false
}
