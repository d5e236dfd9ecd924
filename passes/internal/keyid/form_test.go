package keyid

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"testing"
)

// src is the code the rules are tested on: each key(name, expr) call
// marks expr as the key called name in its function.
const src = `package p

import (
	"fmt"
	"strconv"
	"strings"
)

func key(name string, k any) {}

type Key string

type Locker struct {
	prefix string
	opts   struct{ Prefix string }
	key    string
}

var jobs = &Locker{prefix: "job:"}

const lockFmt = "lock:%s"

func lockKey(id string) string        { return "lock:" + id }
func token() string                   { return "t" }
func (l *Locker) named(s string) string { return l.prefix + s }

func Inline(id string, n int) {
	key("concat", "lock:"+id)
	key("concat2", "lock:"+id)
	key("folded", "lo"+"ck:"+id)
	key("other", "lease:"+id)
	key("sprintf", fmt.Sprintf(lockFmt, id))
	key("sprintf2", fmt.Sprintf("lock:%s", id))
	key("builder", lockKey(id))
	key("builder2", lockKey(id))
	key("itoa", "lock:"+strconv.Itoa(n))
	key("join", strings.Join([]string{"a", id}, ":"))
	key("join2", "a:"+id)
	local := "lock:" + id
	key("local", local)
	k2 := local
	key("local2", k2)
	tok := token()
	key("tok", tok)
	key("tok2", tok)
	key("token", token())
	key("token2", token())
	key("conv", Key(id))
	key("bytes", string([]byte(id)))
	key("plainid", id)
	key("rune", string(rune(n)))
	key("runes", string(rune(n)))
	key("global", jobs.prefix+id)
}

func Written(id string) {
	k := "a:" + id
	key("before", k)
	k = "b:" + id
	key("after", k)
	id = "x"
	key("param", "lock:"+id)
}

func Ranged(ids []string, m map[string]string) {
	for _, id := range ids {
		key("take", "lock:"+id)
	}
	for _, x := range ids {
		key("drop", "lock:"+x)
	}
	for _, id := range []string{"a"} {
		key("other", "lock:"+id)
	}
	for k := range m {
		key("mapkey", "lock:"+k)
	}
	for _, v := range m {
		key("mapval", "lock:"+v)
	}
	for _, w := range ids {
		w = w + "x"
		key("written", "lock:"+w)
	}
	for _, w := range ids {
		key("written2", "lock:"+w)
	}
	for i := range ids {
		key("indexed", "lock:"+ids[i])
	}
	for k := range m {
		key("mapkey2", "lock:"+k)
	}
	type item struct{ key, note string }
	var items []item
	for k := range m {
		items = append(items, item{key: "lock:" + k, note: "n"})
	}
	for i := range items {
		key("itemkey", items[i].key)
		key("itemnote", items[i].note)
	}
	for _, it := range items {
		key("itemkey2", it.key)
	}
	mixed := make([]*item, 0)
	mixed = append(mixed, &item{key: "lock:" + ids[0]}, &item{key: "x"})
	for i := range mixed {
		key("mixed", mixed[i].key)
	}
}

func Normalised(key2 string) {
	key2 = lockKey(key2)
	key("norm", key2)
}

func (l *Locker) Lock(name string) {
	key("field", l.key)
	key("prefixed", l.prefix+name)
	key("opts", l.opts.Prefix+name)
	key("method", l.named(name))
	key("param", "lock:"+name)
}

func (l *Locker) Unlock(other string) {
	key("field", l.key)
	key("prefixed", l.prefix+other)
	key("param", "lock:"+other)
	key("plain", other)
}

func Plain(k string, m *Locker, rest ...string) {
	key("plain", k)
	key("mfield", m.key)
	key("variadic", rest[0])
	key("two", k+rest[0])
}
`

type keys struct {
	scopes map[string]*Scope
	exprs  map[string]map[string]ast.Expr // function → name → expr
}

func load(t *testing.T) *keys {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	k := &keys{scopes: map[string]*Scope{}, exprs: map[string]map[string]ast.Expr{}}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		k.scopes[fd.Name.Name] = NewScope(info, fd)
		k.exprs[fd.Name.Name] = map[string]ast.Expr{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && len(c.Args) == 2 {
				if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "key" {
					name, _ := strconv.Unquote(c.Args[0].(*ast.BasicLit).Value)
					k.exprs[fd.Name.Name][name] = c.Args[1]
				}
			}
			return true
		})
	}
	return k
}

func (k *keys) form(t *testing.T, fn, name string) Form {
	t.Helper()
	e := k.exprs[fn][name]
	if e == nil {
		t.Fatalf("no key %s in %s", name, fn)
	}
	return k.scopes[fn].Of(e)
}

func TestSame(t *testing.T) {
	k := load(t)
	for _, c := range []struct {
		fn, a, b string
		same     bool
	}{
		{"Inline", "concat", "concat2", true},
		{"Inline", "concat", "folded", true}, // constants join
		{"Inline", "concat", "other", false},
		{"Inline", "sprintf", "sprintf2", true}, // the format by value
		{"Inline", "builder", "builder2", true},
		{"Inline", "builder", "concat", false}, // a key function is not looked into
		{"Inline", "local", "concat", true},    // a local defined once is its definition
		{"Inline", "local2", "concat", true},   // two locals deep
		{"Inline", "tok", "tok2", true},        // one variable, not written between
		{"Inline", "token", "token2", false},   // a key function of constants may be a token maker
		{"Inline", "tok", "token", false},
		{"Inline", "conv", "plainid", true},  // a conversion between string types is its operand
		{"Inline", "bytes", "plainid", true}, // []byte and back
		{"Inline", "rune", "runes", true},    // another conversion is a call
		{"Inline", "rune", "itoa", false},
		{"Inline", "itoa", "itoa", true},
		{"Inline", "join", "join2", true}, // strings.Join of a written-out slice
		{"Inline", "global", "global", true},
		{"Written", "before", "after", false}, // written between the two reads
		{"Normalised", "norm", "norm", true},
		{"Ranged", "take", "drop", true},         // the elements of one slice, in two loops
		{"Ranged", "take", "other", false},       // of another slice
		{"Ranged", "mapval", "mapkey", false},    // a map's keys and values are not elements
		{"Ranged", "written", "written2", false}, // written in the loop
		{"Ranged", "take", "indexed", true},      // ids[i] in a range over ids is an element
		{"Ranged", "mapkey", "mapkey2", true},    // a map's keys, in two loops
		{"Ranged", "mapkey", "itemkey", true},    // a field of a slice of literals that set it to the key
		{"Ranged", "mapkey", "itemkey2", true},   // read through the loop's element variable
		{"Ranged", "mapkey", "itemnote", false},  // another field
		{"Ranged", "mixed", "take", false},       // literals that set the field to different values
		{"Plain", "variadic", "variadic", false}, // an index expression is unknown
	} {
		if got := Same(k.form(t, c.fn, c.a), k.form(t, c.fn, c.b)); got != c.same {
			t.Errorf("%s: Same(%s, %s) = %v, want %v (%s, %s)", c.fn, c.a, c.b, got, c.same, k.form(t, c.fn, c.a), k.form(t, c.fn, c.b))
		}
	}
	// Forms of two functions are the same only when made of constants
	// and package-level variables.
	if Same(k.form(t, "Lock", "param"), k.form(t, "Unlock", "param")) {
		t.Error("Same across functions for parameters")
	}
	if Same(Form{}, Form{}) {
		t.Error("two empty forms are the same")
	}
}

func TestSameShape(t *testing.T) {
	k := load(t)
	for _, c := range []struct {
		fa, a, fb, b string
		shape        bool
	}{
		{"Lock", "field", "Unlock", "field", true},       // one field of one struct type
		{"Lock", "field", "Plain", "mfield", true},       // whatever it is selected from
		{"Lock", "prefixed", "Unlock", "prefixed", true}, // field + slot
		{"Lock", "param", "Unlock", "param", true},       // "lock:" + slot
		{"Lock", "param", "Inline", "other", false},      // another constant
		{"Lock", "param", "Inline", "local", true},       // a local stands for its definition
		{"Unlock", "plain", "Plain", "plain", false},     // a lone slot is the shape of every key
		{"Lock", "opts", "Lock", "prefixed", false},      // another field
		{"Inline", "builder", "Normalised", "norm", true},
		{"Inline", "sprintf", "Inline", "sprintf2", true},
	} {
		if got := SameShape(k.form(t, c.fa, c.a), k.form(t, c.fb, c.b)); got != c.shape {
			t.Errorf("SameShape(%s.%s, %s.%s) = %v, want %v (%s, %s)", c.fa, c.a, c.fb, c.b, got, c.shape, k.form(t, c.fa, c.a), k.form(t, c.fb, c.b))
		}
	}
}

func TestTemplate(t *testing.T) {
	k := load(t)
	for _, c := range []struct {
		fn, name, tmpl string
		index          int // -1: no template
	}{
		{"Inline", "concat", `("lock:"+$)`, 0},
		{"Inline", "local", `("lock:"+$)`, 0},
		{"Inline", "sprintf", `fmt.Sprintf("lock:%s",$)`, 0},
		{"Inline", "builder", `func:p.lockKey($)`, 0},
		{"Inline", "itoa", `("lock:"+strconv.Itoa($))`, 1},
		{"Inline", "conv", `$`, 0},
		{"Inline", "rune", `string(rune($))`, 1},
		{"Inline", "global", `(var:p.jobs.prefix+$)`, 0},
		{"Normalised", "norm", `func:p.lockKey($)`, 0},
		{"Lock", "prefixed", `(recv.prefix+$)`, 0},
		{"Lock", "opts", `(recv.opts.Prefix+$)`, 0},
		{"Lock", "method", `func:(*p.Locker).named(recv.*,$)`, 0},
		{"Unlock", "plain", `$`, 0},
		{"Inline", "tok", ``, -1},     // no parameter
		{"Lock", "field", ``, -1},     // the receiver alone
		{"Written", "param", ``, -1},  // a parameter written in the body
		{"Plain", "mfield", ``, -1},   // a field of a parameter
		{"Plain", "variadic", ``, -1}, // the variadic parameter
		{"Plain", "two", ``, -1},      // two parameters
	} {
		got, ok := k.scopes[c.fn].Template(k.form(t, c.fn, c.name))
		switch {
		case c.index < 0 && ok:
			t.Errorf("%s.%s: template %s, want none", c.fn, c.name, got)
		case c.index >= 0 && (!ok || got.String() != c.tmpl || got.Index != c.index):
			t.Errorf("%s.%s: template %s@%d (%v), want %s@%d", c.fn, c.name, got, got.Index, ok, c.tmpl, c.index)
		}
	}
}

// Bind: a call's arguments in a helper's template name the key the
// call names, the same as the inline key where the call is.
func TestBind(t *testing.T) {
	k := load(t)
	tmpl, ok := k.scopes["Inline"].Template(k.form(t, "Inline", "concat"))
	if !ok {
		t.Fatal("no template")
	}
	sc := k.scopes["Written"]
	arg := sc.Of(k.exprs["Written"]["param"].(*ast.BinaryExpr).Y) // id
	bound := Bind(tmpl.Form, arg, Form{})
	if !Same(bound, k.form(t, "Written", "param")) {
		t.Errorf("Bind = %s, want the same as %s", bound, k.form(t, "Written", "param"))
	}
	// A template of the receiver's field with no receiver at the call
	// is unknown.
	ft, ok := k.scopes["Lock"].Template(k.form(t, "Lock", "prefixed"))
	if !ok {
		t.Fatal("no template")
	}
	if b := Bind(ft.Form, arg, Form{}); b.Known() {
		t.Errorf("Bind with no receiver = %s, want unknown", b)
	}
}

// Anchors: forms that are Same or SameShape share one.
func TestAnchors(t *testing.T) {
	k := load(t)
	var all []Form
	for fn, m := range k.exprs {
		for name := range m {
			all = append(all, k.form(t, fn, name))
		}
	}
	for _, a := range all {
		for _, b := range all {
			if (Same(a, b) || SameShape(a, b)) && !shareAnchor(a, b) {
				t.Errorf("%s and %s: no anchor in common", a, b)
			}
		}
	}
}

func shareAnchor(a, b Form) bool {
	for _, x := range Anchors(a) {
		for _, y := range Anchors(b) {
			if x == y {
				return true
			}
		}
	}
	return false
}
