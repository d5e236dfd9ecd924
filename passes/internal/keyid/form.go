package keyid

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// A Form is the symbolic value of a key (or of any operand read as one:
// a token, a connection): the concatenation of its parts, each constant
// text, a variable of the function it is read in (a parameter, the
// receiver, a local) or of its package, with the fields selected from
// it, a call of a key function or of a pure formatting function with the
// forms of its arguments, the element of a ranged slice, or unknown.
//
// A form is read once per operation's key (Scope.Of) and compared with
// Same (one function) or SameShape (two functions); a helper's key is a
// Template of its parameter, which Subst binds to a call's arguments.
// Its exported fields are plain, so a form travels in an analysis fact
// as it is; the unexported ones tie it to the function it was read in
// and are lost on the way, as they should be.
type Form struct {
	Parts []Part

	sc *Scope // the function the form was read in; nil for one from a fact
}

// Kind says what a part is.
type Kind uint8

const (
	// Text is constant text (Part.Text).
	Text Kind = iota + 1
	// Const is a constant that is not a string (a number, a bool):
	// Part.Text is its exact value.
	Const
	// Param is the parameter Part.Index of the function (the receiver
	// not counted), never written in it.
	Param
	// Recv is the function's receiver, never written in it.
	Recv
	// Global is a package-level variable, Part.Text "pkg/path.Name".
	Global
	// Local is any other variable: a local, or a parameter the function
	// writes. It names one value only inside its function, and only
	// while nothing writes it.
	Local
	// Call is Part.Text(Part.Args…): a key function of the module
	// (Part.Builder), a pure formatting function (fmt.Sprintf), or a
	// conversion (Part.Conv).
	Call
	// Elem is an element of the ranged slice Part.Args[0] (the loop's
	// element variable, or the slice indexed by the loop's index), or a
	// key of the ranged map Part.Args[0]. A field of an element of a
	// local slice built only by appends of struct literals is the value
	// the literals set it to (collect.go).
	Elem
	// Unknown is any other expression: it is the same as nothing.
	Unknown
)

// Part is one element of a Form.
type Part struct {
	Kind Kind
	// Text is the text of a Text part, the exact value of a Const, the
	// qualified name of a Global, the function of a Call (the name a
	// template writes: func:pkg/path.F, fmt.Sprintf, or a conversion's
	// type), and a Local's name (for reading only).
	Text string
	// Index is a Param's position.
	Index int
	// Path is the chain of fields selected from a variable part
	// (opts.Prefix); "*" is a dereference.
	Path []string
	// Args are a Call's arguments (with the receiver first for a
	// method: Method) and an Elem's slice.
	Args []Form
	// Method: Args[0] is the receiver of a method key function.
	Method bool
	// Builder: a key function of the module (KeyBuilder), whose value
	// is the same only for the same arguments, and only when one of
	// them varies (a key function of constants may be a token maker).
	Builder bool
	// Conv: a conversion to the type Text.
	Conv bool

	v     *types.Var // the variable of a Param, Recv, Global or Local
	field *types.Var // the last field of Path
	pos   token.Pos  // where a Local is read
	def   *Form      // a Local's sole definition, when it has one
	lit   bool       // a Text written as a literal
	bound bool       // read from the receiver of a call a template was bound to (Bind)
	rlen  int        // for a bound part, how much of Path the receiver itself selects
}

// IsVar reports whether p is a variable (with fields selected from it).
func (p *Part) IsVar() bool {
	switch p.Kind {
	case Param, Recv, Global, Local:
		return true
	}
	return false
}

// Known reports whether f has parts and none of them is Unknown, at
// any depth.
func (f Form) Known() bool {
	if len(f.Parts) == 0 {
		return false
	}
	for _, p := range f.Parts {
		if p.Kind == Unknown {
			return false
		}
		for _, a := range p.Args {
			if !a.Known() {
				return false
			}
		}
	}
	return true
}

// Constant reports whether f is made of constants only.
func (f Form) Constant() bool {
	for _, p := range f.Parts {
		if p.Kind != Text && p.Kind != Const {
			return false
		}
	}
	return len(f.Parts) > 0
}

// Literal reports whether f is one string literal, as written.
func (f Form) Literal() bool {
	return len(f.Parts) == 1 && f.Parts[0].Kind == Text && f.Parts[0].lit
}

// Builder is the name of the key function f is a call of (func:…), or "".
func (f Form) Builder() string {
	if len(f.Parts) == 1 && f.Parts[0].Kind == Call && f.Parts[0].Builder {
		return f.Parts[0].Text
	}
	return ""
}

// String writes f as a template does: constants quoted, a parameter as
// $, the receiver as recv (or $ when the key is built from its fields
// alone), a package-level variable as var:pkg/path.Name, a call as
// name(args), and a concatenation as (a+b), nested to the left.
func (f Form) String() string {
	var b strings.Builder
	f.write(&b, "recv")
	return b.String()
}

func (f Form) write(b *strings.Builder, recv string) {
	if len(f.Parts) == 0 {
		b.WriteString("?")
		return
	}
	b.WriteString(strings.Repeat("(", len(f.Parts)-1))
	for i, p := range f.Parts {
		if i > 0 {
			b.WriteString("+")
		}
		p.write(b, recv)
		if i > 0 {
			b.WriteString(")")
		}
	}
}

func (p Part) write(b *strings.Builder, recv string) {
	switch p.Kind {
	case Text:
		b.WriteString(strconv.Quote(p.Text))
	case Const:
		b.WriteString(p.Text)
	case Param:
		b.WriteString("$")
	case Recv:
		b.WriteString(recv)
	case Global:
		b.WriteString("var:" + p.Text)
	case Local:
		b.WriteString("local:" + p.Text)
	case Call:
		b.WriteString(p.Text + "(")
		for i, a := range p.Args {
			if i > 0 {
				b.WriteString(",")
			}
			if i == 0 && p.Method && len(a.Parts) == 1 && a.Parts[0].Kind == Recv && len(a.Parts[0].Path) == 0 {
				b.WriteString(recv + ".*")
				continue
			}
			a.write(b, recv)
		}
		b.WriteString(")")
	case Elem:
		b.WriteString("elem(")
		if len(p.Args) > 0 {
			p.Args[0].write(b, recv)
		}
		b.WriteString(")")
	default:
		b.WriteString("?")
	}
	for _, f := range p.Path {
		b.WriteString("." + f)
	}
}

// Field is the field f selects, when f is one variable with fields
// selected from it (l.key, s.opts.Name): the last field of its path.
func (f Form) Field() (*types.Var, bool) {
	if len(f.Parts) != 1 {
		return nil, false
	}
	p := &f.Parts[0]
	if !p.IsVar() || len(p.Path) == 0 || p.field == nil {
		return nil, false
	}
	return p.field.Origin(), true
}
