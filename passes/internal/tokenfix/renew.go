package tokenfix

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/redisops"
)

// A helper pair's renewal in a third function (Lock(id), Unlock(id) and
// Renew(id) or a watchdog Renew starts): once Lock writes a token, a
// bare EXPIRE there still extends whoever holds the key, and a renewal
// that compared with what Lock wrote before (the key's own id) would
// never match. The token is threaded to it as to Unlock: Renew takes it
// as an added parameter, its EXPIREs become the compare-and-pexpire, and
// every call of Renew passes the token of the Lock call in whose scope it
// is. When that cannot be done the pair's fix leaves the renewal as it
// is (still a bare EXPIRE, which extends the new token's lock too), and
// renewWhy says why for LV203.

// renewOps are the EXPIREs of the pair's key (by shape) outside Lock and
// Unlock, other than calls of the package's own helpers (their own
// EXPIREs stand for them).
func renewOps(pass *analysis.Pass, rens []*redisops.Op) []*redisops.Op {
	var out []*redisops.Op
	for _, e := range rens {
		if e.Via != nil {
			if fn := typeutil.StaticCallee(pass.TypesInfo, e.Call); fn != nil && fn.Pkg() == pass.Pkg {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// renewal prepares the threading of the token to the renewals rens:
// the renewing function's parameter and the rewritten EXPIREs (in
// p.edits), or why not (then nothing is added).
func (p *pair) renewal(pass *analysis.Pass, res *redisops.Result, u *unit, rens []*redisops.Op) string {
	if len(rens) == 0 {
		return ""
	}
	if p.a.NoTTL {
		return "the lock gets its TTL from an EXPIRE"
	}
	info := pass.TypesInfo
	var rdecl *ast.FuncDecl
	for _, e := range rens {
		var d *ast.FuncDecl
		for c := range e.Cursor.Enclosing((*ast.FuncDecl)(nil)) {
			d = c.Node().(*ast.FuncDecl)
		}
		switch {
		case d == nil:
			return "renewed outside a function"
		case d == p.ldecl || d == p.udecl:
			return fmt.Sprintf("renewed in %s", d.Name.Name)
		case rdecl != nil && d != rdecl:
			return fmt.Sprintf("renewed in %s and %s", rdecl.Name.Name, d.Name.Name)
		case e.Kind != redisops.Expire || e.Scope.Kind != redisops.Direct || e.TTL == nil || e.DeletesKey():
			return fmt.Sprintf("can't rewrite the %s in %s", e.Method, d.Name.Name)
		}
		rdecl = d
	}
	rfn, _ := info.Defs[rdecl.Name].(*types.Func)
	if rfn == nil {
		return "renewed in " + rdecl.Name.Name
	}
	if rfn.Signature().TypeParams().Len() > 0 || rfn.Signature().RecvTypeParams().Len() > 0 {
		return rfn.Name() + " is generic"
	}
	if i := implemented(pass.Pkg, rfn); i != "" {
		return fmt.Sprintf("%s implements %s", rfn.Name(), i)
	}
	if rfn.Exported() && !p.lfn.Exported() && !p.ufn.Exported() {
		// The callers of the pair's package only are edited.
		return fmt.Sprintf("%s is exported and %s is not", rfn.Name(), p.lfn.Name())
	}
	name := freeName(u, rdecl, rdecl.Body.Lbrace+1, nil)
	if name == "" {
		return "no free name for the token in " + rdecl.Name.Name
	}
	vars := res.Shared(scriptVarsKey{}, func() any { return redisops.NewScriptVars(pass, res) }).(*redisops.ScriptVars)
	var edits []analysis.TextEdit
	for _, e := range rens {
		ren, ok := e.Renew(pass, vars, name)
		if !ok {
			if why := e.RenewWhy(pass, vars); why != "" {
				return why
			}
			return fmt.Sprintf("can't rewrite the %s in %s", e.Method, rdecl.Name.Name)
		}
		edits = append(edits, ren...)
	}
	p.edits = append(p.edits, edits...)
	p.rIndex = p.addParam(rdecl, rfn.Signature(), name)
	p.rdecl, p.rfn, p.renewed = rdecl, rfn, rens
	return ""
}

// addParam adds the token parameter name to decl (whose signature is
// sig): before a variadic parameter, else last. It returns the index of
// the new parameter, where calls pass the token.
func (p *pair) addParam(decl *ast.FuncDecl, sig *types.Signature, name string) int {
	params := decl.Type.Params
	switch {
	case len(params.List) == 0:
		p.insert(params.Opening+1, name+" string")
	case sig.Variadic():
		p.insert(params.List[len(params.List)-1].Pos(), name+" string, ")
		return sig.Params().Len() - 1
	default:
		p.insert(params.List[len(params.List)-1].End(), ", "+name+" string")
	}
	return sig.Params().Len()
}
