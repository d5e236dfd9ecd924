package redisops

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/passes/internal/constval"
)

// Lua scripts are often kept in files of their own and embedded:
//
//	//go:embed unlock.lua
//	var unlockLua string
//
//	var unlock = redis.NewScript(unlockLua)
//
// The source is then no constant, but it is as fixed as one: redisops
// reads the file, so that the checks that read scripts (LV104's script
// arguments, LV201's and LV203's owner checks, LV204) see it.
//
// go vet's configuration and go/packages' OtherFiles do not list embedded
// files, so the drivers' Pass.ReadFile refuses them. redisops asks
// Pass.ReadFile first (a driver that lists them, or serves overlays, is
// obeyed) and otherwise reads the file the directive names, from the
// directory of the Go file that holds it, as the compiler does. A file that
// cannot be read, a pattern (*, ?, […]), a directory, several patterns or
// a file over maxEmbed bytes leave the source unknown, and the checks say
// nothing that depends on it.

// maxEmbed bounds the size of an embedded script read (a Lua script is a
// few hundred bytes; a larger file is not one).
const maxEmbed = 1 << 16

// setScriptSrc records e as the Lua source that o runs: ScriptSrc when e
// is a string constant, otherwise e is kept for resolveScripts, which
// reads an embedded file it names.
func (o *Op) setScriptSrc(info *types.Info, e ast.Expr) {
	if s := constval.String(info, e); s != nil {
		o.ScriptSrc, o.ScriptSrcExpr = *s, e
		return
	}
	o.srcArg = e
}

// embeds finds the source of script expressions that name an embedded
// package-level variable. One per package, shared through the Result by
// redisops' run and the fixes that look for an existing script variable
// (they may ask concurrently).
type embeds struct {
	pass  *analysis.Pass
	files map[types.Object]string // embedded variable → file name

	mu   sync.Mutex
	read map[string]*string // file name → its text, nil when unreadable
}

type embedsKey struct{}

// embedsOf is the package's embeds, indexed on first use.
func embedsOf(pass *analysis.Pass, r *Result) *embeds {
	return shared(r, embedsKey{}, func() any {
		em := &embeds{pass: pass, files: map[types.Object]string{}, read: map[string]*string{}}
		em.index()
		return em
	}).(*embeds)
}

// scriptText is the Lua source e stands for: a string constant, or the
// text of the file an embedded variable named by e holds. Nil otherwise.
func scriptText(pass *analysis.Pass, r *Result, e ast.Expr) *string {
	if s := constval.String(pass.TypesInfo, e); s != nil {
		return s
	}
	return embedsOf(pass, r).source(e)
}

// source is the text of the file the variable named by e (x, string(x),
// []byte(x)) embeds, or nil.
func (em *embeds) source(e ast.Expr) *string {
	info := em.pass.TypesInfo
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := info.Types[call.Fun]; ok && tv.IsType() && stringOrBytes(tv.Type) {
			e = ast.Unparen(call.Args[0])
		}
	}
	id := nameOf(e)
	if id == nil {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.Pkg() != em.pass.Pkg || v.Parent() != em.pass.Pkg.Scope() {
		return nil
	}
	name, ok := em.files[v]
	if !ok {
		return nil
	}
	em.mu.Lock()
	defer em.mu.Unlock()
	if src, done := em.read[name]; done {
		return src
	}
	src := em.readFile(name)
	em.read[name] = src
	return src
}

// index finds the package-level variables of type string or []byte
// declared alone under a //go:embed directive with one file name.
func (em *embeds) index() {
	for _, f := range em.pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Names) != 1 || len(vs.Values) != 0 {
					continue
				}
				doc := vs.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				pattern, ok := embedPattern(doc)
				if !ok {
					continue
				}
				obj := em.pass.TypesInfo.Defs[vs.Names[0]]
				if obj == nil || !stringOrBytes(obj.Type()) {
					continue
				}
				dir := filepath.Dir(em.pass.Fset.File(vs.Pos()).Name())
				em.files[obj] = filepath.Join(dir, filepath.FromSlash(pattern))
			}
		}
	}
}

// embedPattern is the one file name of the //go:embed directive in doc.
func embedPattern(doc *ast.CommentGroup) (string, bool) {
	if doc == nil {
		return "", false
	}
	var pattern string
	found := false
	for _, c := range doc.List {
		rest, ok := strings.CutPrefix(c.Text, "//go:embed")
		if !ok || rest == "" || rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		fields := strings.Fields(rest)
		if found || len(fields) != 1 {
			return "", false
		}
		p := fields[0]
		if p[0] == '"' || p[0] == '`' {
			var err error
			if p, err = strconv.Unquote(p); err != nil {
				return "", false
			}
		}
		p = strings.TrimPrefix(p, "all:")
		if p == "" || strings.ContainsAny(p, `*?[\`) || strings.HasPrefix(p, "/") || strings.Contains(p, "..") {
			return "", false
		}
		pattern, found = p, true
	}
	return pattern, found
}

// readFile reads an embedded file through Pass.ReadFile, or directly when
// the driver does not list it.
func (em *embeds) readFile(name string) *string {
	var data []byte
	var err error
	if em.pass.ReadFile != nil {
		data, err = em.pass.ReadFile(name)
	}
	if em.pass.ReadFile == nil || err != nil {
		fi, serr := os.Stat(name)
		if serr != nil || !fi.Mode().IsRegular() || fi.Size() > maxEmbed {
			return nil
		}
		if data, err = os.ReadFile(name); err != nil {
			return nil
		}
	}
	if len(data) > maxEmbed {
		return nil
	}
	s := string(data)
	return &s
}

// stringOrBytes reports whether t is string or []byte, the types an
// embedded file can be read into whole.
func stringOrBytes(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.String
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}
