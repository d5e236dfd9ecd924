package keyid

import (
	"go/ast"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// Same reports whether a and b, read in one function, are the same value
// where they are read: the same constants, parameters, receiver fields
// and package-level variables, the same local variable not written
// between the two reads, the same call of a key function or formatting
// function with the same arguments. A local written once stands for its
// definition when that is a value that cannot change (key := "lock:" +
// id), so the local and the inline key are one. Forms of two functions
// are the same only when they are made of constants and package-level
// variables.
func Same(a, b Form) bool {
	if a.sc != b.sc && !(static(a) && static(b)) {
		return false
	}
	ea, eb := a.expand(false), b.expand(false)
	return len(ea) > 0 && len(ea) == len(eb) && sameParts(a.sc, ea, eb)
}

func sameParts(sc *Scope, a, b []Part) bool {
	for i := range a {
		if !samePart(sc, &a[i], &b[i]) {
			return false
		}
	}
	return true
}

func samePart(sc *Scope, a, b *Part) bool {
	if a.Kind != b.Kind || !slices.Equal(a.Path, b.Path) {
		return false
	}
	switch a.Kind {
	case Text, Const, Global:
		return a.Text == b.Text
	case Param:
		return a.Index == b.Index
	case Recv:
		return true
	case Local:
		return a.v == b.v && sc != nil && !sc.Vars().AssignedBetween(a.v, a.pos, b.pos)
	case Call:
		if a.Text != b.Text || a.Method != b.Method || len(a.Args) != len(b.Args) || a.Builder && !varies(a) {
			return false
		}
		for i := range a.Args {
			ea, eb := a.Args[i].expand(false), b.Args[i].expand(false)
			if len(ea) != len(eb) || !sameParts(sc, ea, eb) {
				return false
			}
		}
		return true
	case Elem:
		return Same(a.Args[0], b.Args[0])
	}
	return false
}

// varies reports whether the call p of a key function has an argument
// (its receiver aside) that is not a constant: lockKey(id) twice is one
// key; randomToken(16) may be a new value each time.
func varies(p *Part) bool {
	for i, a := range p.Args {
		if i == 0 && p.Method {
			continue
		}
		if !a.Constant() {
			return true
		}
	}
	return false
}

// Static reports whether f is the same value in every function:
// constants, package-level variables (and fields of them), and pure calls
// of those.
func Static(f Form) bool { return static(f) }

// static reports whether f is the same value in every function:
// constants, package-level variables, and pure calls of those.
func static(f Form) bool {
	for _, p := range f.Parts {
		switch p.Kind {
		case Text, Const, Global:
		case Call:
			if p.Builder && !varies(&p) {
				return false
			}
			for _, a := range p.Args {
				if !static(a) {
					return false
				}
			}
		default:
			return false
		}
	}
	return len(f.Parts) > 0
}

// expand is f's parts with each local that has a definition replaced by
// it: every such local when all is set (the key's shape across
// functions), otherwise only those defined as a value that cannot
// change while the function runs (stable).
func (f Form) expand(all bool) []Part {
	if !f.hasDef() {
		return f.Parts
	}
	var out []Part
	for _, p := range f.Parts {
		if p.Kind == Local && p.def != nil && (all || stable(*p.def)) {
			out = appendParts(out, p.def.expand(all)...)
			continue
		}
		out = appendParts(out, p)
	}
	return out
}

func (f Form) hasDef() bool {
	for _, p := range f.Parts {
		if p.def != nil {
			return true
		}
	}
	return false
}

// stable reports whether f names one value for the whole of its
// function: constants, parameters, the receiver and package-level
// variables (and fields of them), locals defined as such, and calls of
// pure or key functions of those that vary. A local written more than
// once, an unknown expression, or a key function of constants (a token
// maker) is not.
func stable(f Form) bool {
	for _, p := range f.Parts {
		switch p.Kind {
		case Text, Const, Param, Recv, Global:
		case Local:
			if p.def == nil || !stable(*p.def) {
				return false
			}
		case Call:
			if p.Builder && !varies(&p) {
				return false
			}
			for _, a := range p.Args {
				if !stable(a) {
					return false
				}
			}
		case Elem:
			if !stable(p.Args[0]) {
				return false
			}
		default:
			return false
		}
	}
	return len(f.Parts) > 0
}

// SameShape reports whether a and b, read in two functions (or two
// places of one), build their keys the same way: the same parts, where a
// parameter, a local or the receiver on one side stands for any such
// slot on the other, a field for the same field of its struct type
// whatever it is selected from, and a call's arguments other than
// constants and package-level variables are free. One part at least
// must be more than a slot: a lone parameter is the shape of every key.
// It connects an acquire in one function with a release in another
// (Lock/Unlock); whether such a pair is evidence is the caller's call.
func SameShape(a, b Form) bool {
	ea, eb := a.expand(true), b.expand(true)
	if len(ea) != len(eb) {
		return false
	}
	anchored := false
	for i := range ea {
		if !shapePart(&ea[i], &eb[i]) {
			return false
		}
		anchored = anchored || !slot(&ea[i])
	}
	return anchored
}

// slot reports whether p is a value that varies from call to call: a
// parameter, the receiver, a local, an element.
func slot(p *Part) bool {
	switch p.Kind {
	case Param, Recv, Local:
		return len(p.Path) == 0
	case Elem:
		return true
	case Call:
		// A conversion of a slot (string(rune(n))) varies as the slot.
		if p.Conv && len(p.Args) == 1 && len(p.Args[0].Parts) == 1 {
			return slot(&p.Args[0].Parts[0])
		}
	}
	return false
}

func shapePart(a, b *Part) bool {
	if a.bound || b.bound {
		return a.bound && b.bound && sameReceiver(a, b)
	}
	if slot(a) || slot(b) {
		return slot(a) && slot(b)
	}
	if len(a.Path) > 0 || len(b.Path) > 0 {
		// A field, whatever it is selected from.
		return len(a.Path) > 0 && len(b.Path) > 0 && a.Path[len(a.Path)-1] == b.Path[len(b.Path)-1] &&
			(a.field == nil || b.field == nil || a.field == b.field)
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Text, Const, Global:
		return a.Text == b.Text
	case Call:
		if a.Text != b.Text || len(a.Args) != len(b.Args) {
			return false
		}
		for i := range a.Args {
			x, y := a.Args[i], b.Args[i]
			if (templatePart(x) || templatePart(y) || bound(x) || bound(y)) && !SameShape(x, y) {
				return false
			}
		}
		return true
	}
	return false
}

// sameReceiver reports whether the bound parts a and b (Bind) are read
// from receivers that are the same across functions: one package-level
// variable, or one field (of the same name) of whatever holds them, and
// select the same fields from them.
func sameReceiver(a, b *Part) bool {
	if a.rlen > len(a.Path) || b.rlen > len(b.Path) || !slices.Equal(a.Path[a.rlen:], b.Path[b.rlen:]) {
		return false
	}
	switch {
	case a.rlen > 0 && b.rlen > 0:
		return a.Path[a.rlen-1] == b.Path[b.rlen-1]
	case a.rlen == 0 && b.rlen == 0:
		return a.Kind == Global && b.Kind == Global && a.Text == b.Text
	}
	return false
}

// templatePart reports whether f, an argument of a call in a key, is
// part of the key's template: it has a constant or a package-level
// variable in it ("bill:" + id). The others (the id, a field) vary from
// call to call.
func templatePart(f Form) bool {
	for _, p := range f.Parts {
		if p.Kind == Text || p.Kind == Const || p.Kind == Global && len(p.Path) == 0 {
			return true
		}
	}
	return false
}

// bound reports whether f has a part read from a call's receiver.
func bound(f Form) bool {
	for _, p := range f.Parts {
		if p.bound {
			return true
		}
	}
	return false
}

// Anchor is one index key of a form. Two forms that are Same, or of the
// same shape, share an anchor, so that callers comparing many keys can
// bucket them by their anchors and compare within a bucket only. A
// shared anchor is a candidate, not an answer.
type Anchor struct {
	at   string       // which comparison and where: s for Same's first part, or the position of the first non-slot part
	obj  types.Object // the variable or field, or nil
	text string
}

// Anchors are f's index keys.
func Anchors(f Form) []Anchor {
	var out []Anchor
	add := func(a Anchor) {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	for _, all := range []bool{false, true} {
		ps := f.expand(all)
		if len(ps) == 0 || ps[0].Kind == Unknown {
			continue
		}
		if !all {
			add(anchorOf("s", &ps[0]))
			continue
		}
		for i := range ps {
			if !slot(&ps[i]) {
				add(anchorOf(strconv.Itoa(i)+"/"+strconv.Itoa(len(ps)), &ps[i]))
				break
			}
		}
	}
	return out
}

func anchorOf(at string, p *Part) Anchor {
	a := Anchor{at: at + ":" + strconv.Itoa(int(p.Kind))}
	path := strings.Join(p.Path, ".")
	switch {
	case at != "s" && len(p.Path) > 0:
		// A field, whatever it is selected from.
		a.at, a.text, a.obj = at+":field", p.Path[len(p.Path)-1], p.field
	case p.Kind == Local:
		a.obj, a.text = p.v, path
	case p.Kind == Param:
		// Same compares parameters of one function only: the variable
		// keeps the functions apart.
		a.obj, a.text = p.v, strconv.Itoa(p.Index)+"."+path
	case p.Kind == Recv:
		a.obj, a.text = p.v, path
	default:
		a.text = p.Text + "." + path
	}
	return a
}

// SameFields reports whether a and b are each one variable with the
// same fields selected from it (m.key in Lock, l.key in Unlock: the
// same field path of two variables), and returns the two variables.
func SameFields(a, b Form) (ra, rb *types.Var, ok bool) {
	if len(a.Parts) != 1 || len(b.Parts) != 1 {
		return nil, nil, false
	}
	pa, pb := &a.Parts[0], &b.Parts[0]
	if !pa.IsVar() || !pb.IsVar() || len(pa.Path) == 0 || pa.v == nil || pb.v == nil ||
		!slices.Equal(pa.Path, pb.Path) || pa.field != pb.field {
		return nil, nil, false
	}
	return pa.v, pb.v, true
}

// PartOf reports whether value, read in s's function, is a variable
// part of key's value: the key is built from it (prefix + id,
// fmt.Sprintf("lock:%s", id)), so every holder of the key has it and
// it tells no holder from another. A value that is the whole key is
// Same; a constant is no variable part.
func (s *Scope) PartOf(key, value ast.Expr) bool {
	vf := s.Of(value).expand(false)
	if len(vf) != 1 || !vf[0].IsVar() {
		return false
	}
	return hasPart(s, s.Of(key).expand(false), &vf[0], 0)
}

func hasPart(sc *Scope, parts []Part, v *Part, depth int) bool {
	for i := range parts {
		p := &parts[i]
		if samePart(sc, p, v) {
			return true
		}
		// A pure formatting call of it (fmt.Sprintf, a conversion,
		// strings.Join): not a key function, whose value may differ.
		if p.Kind == Call && !p.Builder && depth < MaxLocalDepth {
			for _, a := range p.Args {
				if hasPart(sc, a.expand(false), v, depth+1) {
					return true
				}
			}
		}
	}
	return false
}
