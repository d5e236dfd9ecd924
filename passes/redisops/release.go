package redisops

// Owner-checked release: the client idiom that checks need to read a
// command's reply and to rewrite an unconditional DEL of a lock key into a
// delete that happens only while the key still holds the holder's token.
// Both are optional adapter capabilities; ops of adapters without them get
// no reply and no rewrite.

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/passes/internal/astx"
)

// ReleaseKind is how a rewritten release checks the owner.
type ReleaseKind uint8

const (
	// ReleaseDelEx sends the server's compare-and-delete command
	// (DELEX key IFEQ token, Redis ≥ 8.4).
	ReleaseDelEx ReleaseKind = iota + 1
	// ReleaseScript runs the compare-and-delete Lua script lua.UnlockSrc
	// from a package-level script variable (reused when the package
	// already has an equivalent one, declared otherwise).
	ReleaseScript
)

// Release is one rewrite of a delete into an owner-checked release.
type Release struct {
	Kind  ReleaseKind
	Edits []analysis.TextEdit
}

// ReleaseOptions selects the rewrites offered.
type ReleaseOptions struct {
	// DelEx also offers ReleaseDelEx when the client in use has the
	// command. The caller decides whether the server is new enough.
	DelEx bool
	// Prefix: the token is a prefix of the lock's value (the owner is a
	// process that writes values starting with it), and the release
	// deletes only while the value starts with it (lua.UnlockPrefixSrc,
	// in a script variable of its own). No DELEX: it compares whole
	// values.
	Prefix bool
}

// unlockScriptSpec is the script variable a release of opts runs: its
// base name, its doc comment, its source, and how an equivalent existing
// script is recognized.
type unlockScriptSpec struct {
	name, doc, src string
	like           func(string) bool
}

// unlockSpec is the script spec of a release made with opts.
func unlockSpec(opts ReleaseOptions) unlockScriptSpec {
	if opts.Prefix {
		return unlockScriptSpec{"unlockPrefixScript", unlockPrefixDoc, lua.UnlockPrefixSrc, unlockPrefixLike}
	}
	return unlockScriptSpec{"unlockScript", unlockDoc, lua.UnlockSrc, unlockLike}
}

// unlockPrefixDoc is the comment on a prefix release script variable a
// fix declares.
const unlockPrefixDoc = `unlockPrefixScript deletes a lock only while its value still starts with
the owner's prefix (KEYS[1] the lock key, ARGV[1] the prefix).`

// Releases returns the rewrites of the delete o into an owner-checked
// release of its one key, comparing the key's value with token (source
// text that is valid at o and evaluates to the token the lock was
// acquired with), ReleaseDelEx first. It returns none when o deletes
// several keys or a spread slice, or when no rewrite keeps the code
// compiling (the receiver cannot run scripts, the delete's reply is used
// in a way the script's reply cannot stand in for, the client package is
// not imported by name, …).
func (o *Op) Releases(pass *analysis.Pass, token string, opts ReleaseOptions) []Release {
	r, ok := o.adapter.(releaser)
	if !ok || o.Kind != Delete || len(o.Keys) != 1 || o.KeysSpread || token == "" {
		return nil
	}
	return r.releases(pass, o, token, opts)
}

// releaseWhyer is implemented by adapters that can say why a delete has
// no owner-checked rewrite.
type releaseWhyer interface {
	releaseWhy(pass *analysis.Pass, o *Op) string
}

// ReleaseWhy says in a few words why Releases has no rewrite of the
// delete o ("Store has no Eval"), when its adapter can tell; "" otherwise.
func (o *Op) ReleaseWhy(pass *analysis.Pass) string {
	if r, ok := o.adapter.(releaseWhyer); ok && o.Kind == Delete {
		return r.releaseWhy(pass, o)
	}
	return ""
}

// Reply returns where the reply of o is read: the expression that yields
// the value in place (rdb.Get(ctx, k).Val()), or the variable it is
// assigned to (v := rdb.Get(ctx, k).Val(); v, err := rdb.Get(ctx, k).Result()).
// Both are nil when the value is not kept, or the adapter cannot tell.
func (o *Op) Reply(info *types.Info) (ast.Expr, *types.Var) {
	if r, ok := o.adapter.(replier); ok {
		return r.reply(info, o)
	}
	return nil, nil
}

// ReplyValue returns the expression whose value is the reply's value
// holder when e reads the value of o's reply: e itself for clients whose
// reply is the value, and, for a client whose reply is a record (a
// gomemcache *Item), the record when e reads its value field (it.Value,
// string(it.Value)). It returns nil when e does not read the value. Code
// matching the reply of Reply against an expression passes it through
// ReplyValue first.
func (o *Op) ReplyValue(info *types.Info, e ast.Expr) ast.Expr {
	if r, ok := o.adapter.(valueReader); ok {
		return r.replyValue(info, o, ast.Unparen(e))
	}
	return ast.Unparen(e)
}

// pairFirst returns the first variable of a two-valued read that is the
// only right-hand side of the assignment or declaration n (v, err := …;
// var v, err = …), or nil when n is something else or the first is _.
func pairFirst(info *types.Info, n ast.Node) *types.Var {
	var first *ast.Ident
	switch p := n.(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == 2 && len(p.Rhs) == 1 {
			first, _ = p.Lhs[0].(*ast.Ident)
		}
	case *ast.ValueSpec:
		if len(p.Names) == 2 && len(p.Values) == 1 {
			first = p.Names[0]
		}
	}
	if first == nil || first.Name == "_" {
		return nil
	}
	v, _ := info.ObjectOf(first).(*types.Var)
	return v
}

var secondKeyOrArg = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(keys|argv)\[\s*[2-9]`) })

// unlockLike: a compare-and-delete of KEYS[1] against ARGV[1] that takes
// nothing else.
func unlockLike(src string) bool {
	s := lua.Classify(src)
	return s.Kind == lua.CompareAndDelete && s.TokenArg == 1 && !s.Prefix && !secondKeyOrArg().MatchString(src)
}

// unlockPrefixLike: a delete of KEYS[1] while its value starts with
// ARGV[1], taking nothing else.
func unlockPrefixLike(src string) bool {
	s := lua.Classify(src)
	return s.Kind == lua.CompareAndDelete && s.TokenArg == 1 && s.Prefix && !secondKeyOrArg().MatchString(src)
}

// methodOf looks up a method of t (or *t) by name.
func methodOf(t types.Type, pkg *types.Package, name string) *types.Func {
	obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
	fn, _ := obj.(*types.Func)
	return fn
}

func sameResults(a, b *types.Signature) bool {
	return types.Identical(a.Results(), b.Results())
}

func hasField(st *types.Struct, name string) bool {
	for f := range st.Fields() {
		if f.Name() == name {
			return true
		}
	}
	return false
}

// importedAs is the name under which file imports path, when that name
// means the package at pos (not shadowed, not _ or .).
func importedAs(pass *analysis.Pass, file *ast.File, path string, pos token.Pos) (string, bool) {
	for _, spec := range file.Imports {
		if p, err := strconv.Unquote(spec.Path.Value); err != nil || p != path {
			continue
		}
		pn := pass.TypesInfo.PkgNameOf(spec)
		if pn == nil || pn.Name() == "_" || pn.Name() == "." {
			continue
		}
		if resolveAt(pass, file, pn.Name(), pos) == types.Object(pn) {
			return pn.Name(), true
		}
	}
	return "", false
}

func isTestFile(pass *analysis.Pass, f *ast.File) bool {
	return astx.InTest(pass.Fset, f.Pos())
}
