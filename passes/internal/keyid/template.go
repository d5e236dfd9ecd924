package keyid

import (
	"go/ast"
	"go/types"
	"slices"
)

// Template is how a function builds a key from one of its parameters:
// the key's form, in which the parameter is a Param part and the
// function's receiver a Recv part. In
//
//	func Lock(ctx context.Context, id string) { rdb.SetNX(ctx, "lock:"+id, …) }
//
// the key's template is ("lock:"+$), its parameter id at Index 1. A call
// of the function names the key Bind(template, its argument, its
// receiver).
type Template struct {
	Index int    // the parameter's position, the receiver not counted
	Name  string // the parameter's name
	Form  Form
}

// String is the template as tests and messages write it.
func (t Template) String() string { return t.Form.String() }

// Template describes f, read in s's declared function, when it depends
// on exactly one parameter of the function (not the variadic one, and
// never written there but for one normalising statement at the top) and
// otherwise only on constants, package-level variables (and their
// fields), fields of the receiver, and calls of key functions (a method
// one on the receiver itself) and pure formatting functions of those.
// Locals written once stand for their definitions.
func (s *Scope) Template(f Form) (Template, bool) {
	if s == nil || s.fn == nil || f.sc != s {
		return Template{}, false
	}
	t := Form{Parts: f.expand(true), sc: s}
	index := -1
	if !templateParts(t.Parts, &index) || index < 0 {
		return Template{}, false
	}
	return Template{Index: index, Name: s.sig.Params().At(index).Name(), Form: t}, true
}

// templateParts reports whether ps may be part of a template, setting
// *index to the one parameter they use.
func templateParts(ps []Part, index *int) bool {
	for i := range ps {
		p := &ps[i]
		switch p.Kind {
		case Text, Const, Global:
		case Param:
			if len(p.Path) > 0 || *index >= 0 && *index != p.Index {
				return false
			}
			*index = p.Index
		case Recv:
			if len(p.Path) == 0 {
				return false
			}
		case Call:
			for j, a := range p.Args {
				if j == 0 && p.Method {
					// A method key function on the receiver itself:
					// one more input, the same only on one receiver.
					if len(a.Parts) != 1 || a.Parts[0].Kind != Recv || len(a.Parts[0].Path) > 0 {
						return false
					}
					continue
				}
				if !templateParts(a.Parts, index) {
					return false
				}
			}
		default:
			return false
		}
	}
	return len(ps) > 0
}

// KeptParam is, when e read in s's declared function is by itself one
// of its parameters that the function never writes (not the variadic
// one), the parameter's position.
func (s *Scope) KeptParam(e ast.Expr) (int, bool) {
	f := s.Of(e)
	if len(f.Parts) != 1 || f.Parts[0].Kind != Param || len(f.Parts[0].Path) > 0 {
		return -1, false
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); !ok || s.info.Uses[id] != f.Parts[0].v {
		return -1, false // the parameter normalised at the top
	}
	return f.Parts[0].Index, true
}

// UsesRecv reports whether the template t builds its key from the
// receiver of the function as well as from its parameter (l.prefix +
// name): two calls build the same key from the same argument only on
// the same receiver.
func (f Form) UsesRecv() bool {
	for _, p := range f.Parts {
		if p.Kind == Recv {
			return true
		}
		for _, a := range p.Args {
			if a.UsesRecv() {
				return true
			}
		}
	}
	return false
}

// Bind is the key a call of a function names, the template t being the
// function's: its parameter replaced by arg and its receiver by recv,
// forms read at the call. A receiver the call does not give, or one
// that is not a variable when the template selects a field from it, is
// unknown.
func Bind(t Form, arg, recv Form) Form {
	out := Form{sc: arg.sc}
	out.Parts = bindParts(nil, t.Parts, arg, recv)
	return out
}

func bindParts(out, ps []Part, arg, recv Form) []Part {
	for _, p := range ps {
		switch p.Kind {
		case Param:
			out = appendParts(out, arg.Parts...)
		case Recv:
			if len(p.Path) == 0 {
				out = appendParts(out, boundParts(recv.Parts)...)
				continue
			}
			base := boundParts(recv.Parts)
			for i, name := range p.Path {
				var field *types.Var
				if i == len(p.Path)-1 {
					field = p.field
				}
				sel, ok := recv.sc.selectFrom(base, name, field)
				if !ok {
					base = []Part{{Kind: Unknown}}
					break
				}
				base = sel
			}
			out = appendParts(out, base...)
		case Call:
			c := p
			c.Args = make([]Form, len(p.Args))
			for i, a := range p.Args {
				c.Args[i] = Form{Parts: bindParts(nil, a.Parts, arg, recv), sc: arg.sc}
			}
			out = append(out, c)
		default:
			out = appendParts(out, p)
		}
	}
	return out
}

// boundParts are ps, the receiver of a call, marked as such: across
// functions a receiver is the same only when it is one package-level
// variable or one field (SameShape), never as a slot.
func boundParts(ps []Part) []Part {
	out := slices.Clone(ps)
	for i := range out {
		out[i].bound, out[i].rlen = true, len(out[i].Path)
	}
	return out
}

// SameTemplate reports whether a and b are the same template, their
// parameters being the same slot wherever each function has it.
func SameTemplate(a, b Form) bool {
	if len(a.Parts) != len(b.Parts) {
		return false
	}
	for i := range a.Parts {
		x, y := &a.Parts[i], &b.Parts[i]
		if x.Kind != y.Kind || x.Text != y.Text || x.Method != y.Method || len(x.Args) != len(y.Args) || !equalPath(x.Path, y.Path) {
			return false
		}
		for j := range x.Args {
			if !SameTemplate(x.Args[j], y.Args[j]) {
				return false
			}
		}
	}
	return true
}

func equalPath(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ParamForm is the template of a key that is the parameter at index as
// it is given ($), for summaries made by hand (tests) or read from a
// declaration.
func ParamForm(index int) Form {
	return Form{Parts: []Part{{Kind: Param, Index: index}}}
}
