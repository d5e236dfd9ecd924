package findings

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"go/scanner"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Identity is what a finding is, apart from where it is: its rule, package,
// enclosing declaration, the code it reports and its message without file
// positions. Moving code, adding lines above it or reformatting it leaves
// it as it was. It keys the baseline (internal/gates) and, hashed, the
// fingerprints of SARIF and Code Climate.
type Identity struct {
	Rule     string `json:"rule"`
	Package  string `json:"package"`            // import path
	Function string `json:"function,omitempty"` // enclosing top-level declaration: "F", "(*T).M", "T.M", or a var's name
	Code     string `json:"code"`               // the reported expression, as tokens: formatting and comments do not matter
	Message  string `json:"message"`            // without file positions
}

// Identify returns the finding's identity.
func (res *Result) Identify(f *Finding) Identity {
	id := Identity{
		Rule:    f.Rule(),
		Package: f.Pkg.PkgPath,
		Message: positionsRE().ReplaceAllString(WithoutReason(f.Diag.Message), "$1"),
	}
	if decl := f.EnclosingDecl(f.Diag.Pos); decl != nil {
		id.Function = declName(decl)
	}
	id.Code = res.code(f)
	return id
}

// positionsRE matches file positions a message may carry; identities
// keep only the file's base name.
var positionsRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:\S*/)?([^\s/:]+\.go):\d+(?::\d+)?`) })

// WithoutReason is msg without the reason it gives for carrying no fix
// ("(no fix: Unlock is called from another module)"), parentheses
// inside the reason included: the reason says what lockvet can rewrite,
// not what the finding is, so a release that learns the fix (or words
// the reason anew) keeps the finding's identity and its baseline.
func WithoutReason(msg string) string {
	const open = "(no fix: "
	var b strings.Builder
	for {
		i := strings.Index(msg, open)
		if i < 0 {
			break
		}
		depth, end := 0, -1
		for j := i; j < len(msg) && end < 0; j++ {
			switch msg[j] {
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					end = j + 1
				}
			}
		}
		if end < 0 {
			break // unbalanced: left as it is
		}
		b.WriteString(strings.TrimSuffix(msg[:i], " "))
		msg = msg[end:]
	}
	b.WriteString(msg)
	return b.String()
}

// Fingerprinted returns the findings and the suppressed findings sorted
// by position, and each one's fingerprint: the hash of its identity and
// of its rank among the findings with the same identity (in position
// order), as GitHub code scanning does with its own line hashes.
// Fingerprints rank equal identities by position over all findings,
// suppressed or not, so that suppressing one does not change another's.
func (res *Result) Fingerprinted() ([]*Finding, map[*Finding]string) {
	all := slices.Concat(res.Findings, res.Suppressed)
	slices.SortStableFunc(all, Compare)
	prints := map[*Finding]string{}
	seen := map[Identity]int{}
	for _, f := range all {
		id := res.Identify(f)
		seen[id]++
		h := sha256.New()
		for _, s := range []string{id.Rule, id.Package, id.Function, id.Code, id.Message, strconv.Itoa(seen[id])} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
		prints[f] = hex.EncodeToString(h.Sum(nil))[:32]
	}
	return all, prints
}

// declName names a top-level declaration: "F", "T.M", "(*T).M", or the
// names a var, const or type declaration declares.
func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil || len(d.Recv.List) == 0 {
			return d.Name.Name
		}
		t, ptr := d.Recv.List[0].Type, false
		if star, ok := t.(*ast.StarExpr); ok {
			t, ptr = star.X, true
		}
		switch x := t.(type) {
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		}
		recv := "?"
		if id, ok := t.(*ast.Ident); ok {
			recv = id.Name
		}
		if ptr {
			return "(*" + recv + ")." + d.Name.Name
		}
		return recv + "." + d.Name.Name
	case *ast.GenDecl:
		var names []string
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			}
		}
		return strings.Join(names, ",")
	}
	return ""
}

// maxCode bounds the code of an identity; longer code is cut and the cut
// part replaced by its hash.
const maxCode = 200

// code is the source of the finding's range as a space-separated list of
// tokens, without comments: a stable key for what is reported, whatever
// its formatting. A diagnostic without an end covers the rest of its line.
func (res *Result) code(f *Finding) string {
	tf := f.Pkg.Fset.File(f.Diag.Pos)
	if tf == nil {
		return ""
	}
	src := res.Source(tf.Name())
	start := tf.Offset(f.Diag.Pos)
	end := start
	if e := f.Diag.End; e.IsValid() && e > f.Diag.Pos && tf.Base() <= int(e) && int(e) <= tf.Base()+tf.Size() {
		end = tf.Offset(e)
	}
	if end > len(src) || start > len(src) {
		return ""
	}
	if end == start {
		end = start + bytes.IndexByte(src[start:], '\n')
		if end < start {
			end = len(src)
		}
	}
	return normalizeCode(src[start:end])
}

// normalizeCode spells the tokens of src one way, whatever the layout:
// a space between two words (identifiers, keywords, literals) and after
// commas and semicolons, nothing else; comments are dropped.
func normalizeCode(src []byte) string {
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var b strings.Builder
	prevWord := false
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted
		}
		word := tok.IsLiteral() || tok.IsKeyword()
		if lit == "" {
			lit = tok.String()
		}
		if prevWord && word {
			b.WriteByte(' ')
		}
		b.WriteString(lit)
		if tok == token.COMMA || tok == token.SEMICOLON {
			b.WriteByte(' ')
		}
		prevWord = word
	}
	code := b.String()
	if len(code) > maxCode {
		sum := sha256.Sum256([]byte(code[maxCode-20:]))
		code = strings.ToValidUTF8(code[:maxCode-20], "") + " … " + hex.EncodeToString(sum[:8])
	}
	return code
}
