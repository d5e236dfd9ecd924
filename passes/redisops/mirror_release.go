package redisops

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// A mirror's owner-checked release: Del(ctx, key) on the project's own
// layer becomes its Eval of the compare-and-delete script,
//
//	s.Eval(ctx, unlockLua, []string{key}, token)
//
// whose reply is, as DEL's, the number of keys deleted (0 when the key
// holds another token). The script's source is a package-level constant
// (an existing one of the same script, or unlockLua declared once per
// package). There is no rewrite when the type has no Eval, when the delete
// is queued in a batch, or when the delete's reply is used in a way the
// Eval's cannot stand in for.

func (t *mirrorType) releases(pass *analysis.Pass, o *Op, tok string, opts ReleaseOptions) []Release {
	if opts.Prefix {
		return nil // its Eval runs the exact compare-and-delete only
	}
	edits, why := t.release(pass, o, tok)
	if why != "" {
		return nil
	}
	return []Release{{Kind: ReleaseScript, Edits: edits}}
}

// releaseWhy: why a mirror's delete has no rewrite, in a few words.
func (t *mirrorType) releaseWhy(pass *analysis.Pass, o *Op) string {
	_, why := t.release(pass, o, "token")
	return why
}

// evalMethod is the type's Eval (by name order when it has several
// spellings), or nil.
func (t *mirrorType) evalMethod() *mirrorMethod {
	var names []string
	for n, mm := range t.methods {
		if mm.cmd == "EVAL" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	return t.methods[names[0]]
}

func (t *mirrorType) release(pass *analysis.Pass, o *Op, tok string) ([]analysis.TextEdit, string) {
	mm := t.methods[o.Method]
	if mm == nil || mm.cmd != "DEL" && mm.cmd != "UNLINK" || o.Recv == nil {
		return nil, "not a delete"
	}
	if len(o.Keys) != 1 || o.KeysSpread {
		return nil, "it deletes several keys"
	}
	ev := t.evalMethod()
	var added []analysis.TextEdit // the Eval the fix declares (mirror_eval.go)
	if ev == nil {
		var why string
		if ev, added, why = t.addedEval(pass, o, mm); why != "" {
			return nil, why
		}
	}
	if o.Scope.Kind != Direct {
		return nil, "a delete in a batch"
	}
	if ev.ctx && !mm.ctx {
		return nil, "its Eval takes a context"
	}
	sig := ev.fn.Signature()
	i := 0
	if ev.ctx {
		i = 1
	}
	keys, args := sig.Params().At(i+1).Type(), sig.Params().At(i+2).Type()
	if !types.AssignableTo(types.NewSlice(types.Typ[types.String]), keys) {
		return nil, "its Eval takes no []string keys"
	}
	if s, ok := args.(*types.Slice); !ok || !types.AssignableTo(types.Typ[types.String], s.Elem()) {
		return nil, "its Eval takes no string argument"
	}
	edits, ok := mirrorKeepReply(pass.TypesInfo, o, mm, ev)
	if !ok {
		return nil, "its reply is used"
	}
	file := fileAt(pass, o.res, o.Call.Pos())
	if file == nil {
		return nil, "no file"
	}
	name, decl, ok := unlockSrc(pass, o, file)
	if !ok {
		return nil, "no name for the script"
	}
	ctx := ""
	if ev.ctx {
		ctx = fixes.Text(pass.Fset, o.Call.Args[0]) + ", "
	}
	text := fmt.Sprintf("%s.%s(%s%s, []string{%s}, %s)", fixes.Text(pass.Fset, o.Recv), ev.fn.Name(), ctx, name, fixes.Text(pass.Fset, o.Keys[0]), tok)
	edits = append(edits, fixes.Replace(o.Call, text))
	if decl != nil {
		edits = append(edits, *decl)
	}
	return append(edits, added...), ""
}

// typeName is how a message names a mirror type.
func typeName(t types.Type) string {
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return "the interface"
}

// mirrorKeepReply is keepReply for a mirror's delete becoming its Eval:
// command values as go-redis' (Err kept; Result becomes Int64 when the
// Eval's value has it), plain values when both methods return the same
// types, or when the reply is dropped.
func mirrorKeepReply(info *types.Info, o *Op, del, ev *mirrorMethod) ([]analysis.TextEdit, bool) {
	from, to := del.fn.Signature().Results(), ev.fn.Signature().Results()
	if types.Identical(from, to) {
		return nil, true
	}
	if del.shape == shapeCmd && ev.shape == shapeCmd {
		return keepReply(o, from.At(0).Type(), to.At(0).Type(), "Int64")
	}
	switch p := o.Cursor.Parent().Node().(type) {
	case *ast.ExprStmt, *ast.DeferStmt, *ast.GoStmt:
		return nil, true
	case *ast.AssignStmt:
		// _, err := s.Del(ctx, k) with (int64, error) for (any, error).
		if len(p.Rhs) == 1 && len(p.Lhs) == 2 && from.Len() == 2 && to.Len() == 2 && isBlank(p.Lhs[0]) {
			return nil, true
		}
		// err := s.Del(ctx, k) with error for (any, error).
		if len(p.Rhs) == 1 && len(p.Lhs) == 1 && from.Len() == 1 && isError(from.At(0).Type()) &&
			to.Len() == 2 && isError(to.At(1).Type()) {
			return []analysis.TextEdit{{Pos: p.Lhs[0].Pos(), End: p.Lhs[0].Pos(), NewText: []byte("_, ")}}, true
		}
	}
	return nil, false
}

type unlockSrcKey struct{ inTest bool }

// srcPlan is the package's constant holding the compare-and-delete
// script's source: an existing one, or the name and declaration of a
// new one.
type srcPlan struct {
	name     string
	existing types.Object
	edit     *analysis.TextEdit
	ok       bool
}

// unlockSrc names the constant that holds the script's source at o, with
// the edit that declares it when it is new.
func unlockSrc(pass *analysis.Pass, o *Op, file *ast.File) (string, *analysis.TextEdit, bool) {
	inTest := isTestFile(pass, file)
	p := shared(o.res, unlockSrcKey{inTest}, func() any { return planUnlockSrc(pass, o.res, inTest) }).(*srcPlan)
	if !p.ok {
		return "", nil, false
	}
	obj := resolveAt(pass, file, p.name, o.Call.Pos())
	if p.existing != nil {
		return p.name, nil, obj == p.existing
	}
	if obj != nil {
		return "", nil, false
	}
	return p.name, p.edit, true
}

func planUnlockSrc(pass *analysis.Pass, res *Result, inTest bool) *srcPlan {
	scan := scanOf(pass, res)
	scope := pass.Pkg.Scope()
	for _, n := range scope.Names() {
		c, ok := scope.Lookup(n).(*types.Const)
		if !ok || c.Val().Kind() != constant.String {
			continue
		}
		if unlockLike(constant.StringVal(c.Val())) {
			if f := fileAt(pass, res, c.Pos()); f != nil && (inTest || !isTestFile(pass, f)) {
				return &srcPlan{name: n, existing: c, ok: true}
			}
		}
	}
	// A new constant, declared after the imports of the first file (by
	// name), so that every fix of the package declares it in one place.
	var after token.Pos
	for _, f := range scan.byName {
		if !inTest && isTestFile(pass, f) || ast.IsGenerated(f) {
			continue
		}
		after = f.Name.End()
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
				after = gd.End()
			}
		}
		break
	}
	if !after.IsValid() {
		return &srcPlan{}
	}
	name := "unlockLua"
	for i := 2; scan.taken(pass, name); i++ {
		name = "unlockLua" + strconv.Itoa(i)
	}
	text := fmt.Sprintf("\n\n// %s deletes a lock only while it still holds the token it was\n// acquired with (KEYS[1] the lock key, ARGV[1] the token).\nconst %s = `%s`", name, name, lua.UnlockSrc)
	return &srcPlan{name: name, edit: &analysis.TextEdit{Pos: after, End: after, NewText: []byte(text)}, ok: true}
}
