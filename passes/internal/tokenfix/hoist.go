package tokenfix

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// hoistRenamed moves the call of Lock out of an if's init when its token
// is needed after the if but hoisting the init's names would change what
// they mean (an outer err that the block assigns later): the call goes
// before the if with fresh names for its results, and the init keeps
// its own names, now given from the fresh ones:
//
//	if err := Lock(k); err != nil {     token, lockErr := Lock(k)
//		return err                  =>  if err := lockErr; err != nil {
//	}                                       return err
//	defer Unlock(k)                     }
//	                                    defer Unlock(k, token)
//
// Every name keeps its scope: the init's variables are still the if's
// own, and the fresh ones mean nothing else in the function.
func (p *pair) hoistRenamed(u *unit, lc *lockCall, a *ast.AssignStmt, taken map[*ast.FuncDecl]map[string]bool) string {
	ifs := lc.stmt.(*ast.IfStmt)
	if taken[lc.decl] == nil {
		taken[lc.decl] = map[string]bool{}
	}
	var fresh, from, to []string
	for _, l := range a.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			return "a result of " + p.lfn.Name() + " kept in an expression in " + p.fname(lc.decl)
		}
		if id.Name == "_" {
			fresh = append(fresh, "_")
			continue
		}
		title := strings.ToUpper(id.Name[:1]) + id.Name[1:]
		name := freeName(u, lc.decl, ifs.Pos(), taken[lc.decl], "lock"+title, id.Name+"2", "lock"+title+"2")
		if name == "" {
			return "no free name in " + p.fname(lc.decl)
		}
		taken[lc.decl][name] = true
		fresh = append(fresh, name)
		from, to = append(from, name), append(to, id.Name)
	}
	tok := lc.name
	lhs := append(append(append([]string{}, fresh[:p.k]...), tok), fresh[p.k:]...)
	p.insert(ifs.Pos(), strings.Join(lhs, ", ")+" := "+u.src(a.Rhs[0])+"\n"+u.indent(ifs.Pos()))
	if len(to) == 0 {
		p.edits = append(p.edits, analysis.TextEdit{Pos: a.Pos(), End: ifs.Cond.Pos()})
	} else {
		p.edits = append(p.edits, fixesReplace(a, strings.Join(to, ", ")+" := "+strings.Join(from, ", ")))
	}
	return ""
}
