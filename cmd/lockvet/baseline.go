package main

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A baseline is the findings a project has accepted for now: with
// -baseline FILE lockvet reports only findings that are not in it, and
// -write-baseline FILE records the current ones. Entries name a finding
// by what it is, not where it is (see identity), so moving code, adding
// lines above it or editing other lines does not bring it back.
//
// The file is JSON:
//
//	{
//	  "lockvet-baseline": 1,
//	  "findings": [
//	    {"rule": "LV101", "package": "example.com/app/jobs", "function": "(*Runner).Run",
//	     "code": "r.rdb.Expire(ctx, key, ttl)", "message": "…"},
//	    …
//	  ]
//	}
//
// with "count" added when several findings share an identity.

// baselineVersion is the format version written and accepted.
const baselineVersion = 1

// identity is what a finding is, apart from where it is. It keys the
// baseline and, hashed, SARIF partialFingerprints.
type identity struct {
	Rule     string `json:"rule"`
	Package  string `json:"package"`            // import path
	Function string `json:"function,omitempty"` // enclosing top-level declaration: "F", "(*T).M", "T.M", or a var's name
	Code     string `json:"code"`               // the reported expression, as tokens: formatting and comments do not matter
	Message  string `json:"message"`            // without file positions
}

type baselineEntry struct {
	identity
	Count int `json:"count,omitempty"` // omitted when 1
}

type baselineFile struct {
	Version  int             `json:"lockvet-baseline"`
	Findings []baselineEntry `json:"findings"`
}

// writeBaseline writes the identities of findings to path.
func writeBaseline(path string, res *result, findings []*finding) error {
	counts := map[identity]int{}
	for _, f := range findings {
		counts[res.identify(f)]++
	}
	b := baselineFile{Version: baselineVersion, Findings: []baselineEntry{}}
	for id, n := range counts {
		if n == 1 {
			n = 0
		}
		b.Findings = append(b.Findings, baselineEntry{id, n})
	}
	slices.SortFunc(b.Findings, func(x, y baselineEntry) int {
		return cmp.Or(
			cmp.Compare(x.Package, y.Package),
			cmp.Compare(x.Function, y.Function),
			cmp.Compare(x.Rule, y.Rule),
			cmp.Compare(x.Code, y.Code),
			cmp.Compare(x.Message, y.Message))
	})
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// readBaseline reads a baseline written by writeBaseline.
func readBaseline(path string) (map[identity]int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var b baselineFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("%s: not a lockvet baseline: %v", path, err)
	}
	if b.Version != baselineVersion {
		return nil, fmt.Errorf("%s: baseline format %d, this lockvet reads format %d (write it again with -write-baseline)", path, b.Version, baselineVersion)
	}
	counts := map[identity]int{}
	for _, e := range b.Findings {
		counts[e.identity] += max(e.Count, 1)
	}
	return counts, nil
}

// notInBaseline returns the findings the baseline does not account for.
// A baseline entry absorbs as many findings as its count. Entries are
// first matched exactly; entries left over then match findings that
// differ only in their message, so that a reworded message in a newer
// lockvet does not bring back every accepted finding.
func notInBaseline(res *result, findings []*finding, base map[identity]int) []*finding {
	base = clone(base)
	loose := func(id identity) identity { id.Message = ""; return id }
	var unmatched []*finding
	for _, f := range findings {
		if id := res.identify(f); base[id] > 0 {
			base[id]--
		} else {
			unmatched = append(unmatched, f)
		}
	}
	left := map[identity]int{}
	for id, n := range base {
		left[loose(id)] += n
	}
	var out []*finding
	for _, f := range unmatched {
		if id := loose(res.identify(f)); left[id] > 0 {
			left[id]--
		} else {
			out = append(out, f)
		}
	}
	return out
}

func clone(m map[identity]int) map[identity]int {
	out := make(map[identity]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// identify returns the finding's identity.
func (res *result) identify(f *finding) identity {
	id := identity{
		Rule:    f.rule(),
		Package: f.pkg.PkgPath,
		Message: positionsRE().ReplaceAllString(f.diag.Message, "$1"),
	}
	if decl := enclosingDecl(f, f.diag.Pos); decl != nil {
		id.Function = declName(decl)
	}
	id.Code = res.code(f)
	return id
}

// positionsRE matches file positions a message may carry; identities
// keep only the file's base name.
var positionsRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:\S*/)?([^\s/:]+\.go):\d+(?::\d+)?`) })

// fingerprints returns a stable fingerprint for each finding, in order:
// the hash of its identity and of its rank among the findings with the
// same identity (in position order), as GitHub code scanning does with
// its own line hashes. Findings must be sorted by position.
// fingerprinted returns the findings and the suppressed findings sorted
// by position, and each one's fingerprint. Fingerprints rank equal
// identities by position over all findings, suppressed or not, so that
// suppressing one does not change another's.
func (res *result) fingerprinted() ([]*finding, map[*finding]string) {
	all := slices.Concat(res.findings, res.suppressed)
	slices.SortStableFunc(all, compareFindings)
	prints := map[*finding]string{}
	for i, fp := range res.fingerprints(all) {
		prints[all[i]] = fp
	}
	return all, prints
}

func (res *result) fingerprints(findings []*finding) []string {
	seen := map[identity]int{}
	out := make([]string, len(findings))
	for i, f := range findings {
		id := res.identify(f)
		seen[id]++
		h := sha256.New()
		for _, s := range []string{id.Rule, id.Package, id.Function, id.Code, id.Message, strconv.Itoa(seen[id])} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
		out[i] = hex.EncodeToString(h.Sum(nil))[:32]
	}
	return out
}

// enclosingDecl is the top-level declaration of f's package containing
// pos, or nil.
func enclosingDecl(f *finding, pos token.Pos) ast.Decl {
	tf := f.pkg.Fset.File(pos)
	if tf == nil {
		return nil
	}
	file := fileSyntax(f, tf)
	if file == nil {
		return nil
	}
	i, found := slices.BinarySearchFunc(file.Decls, pos, func(d ast.Decl, p token.Pos) int {
		switch {
		case d.End() <= p:
			return -1
		case d.Pos() > p:
			return 1
		}
		return 0
	})
	if !found {
		return nil
	}
	return file.Decls[i]
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
func (res *result) code(f *finding) string {
	tf := f.pkg.Fset.File(f.diag.Pos)
	if tf == nil {
		return ""
	}
	src := res.source(tf.Name())
	start := tf.Offset(f.diag.Pos)
	end := start
	if e := f.diag.End; e.IsValid() && e > f.diag.Pos && tf.Base() <= int(e) && int(e) <= tf.Base()+tf.Size() {
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

// source is the content of a file, read once per result; nil when it
// cannot be read.
func (res *result) source(name string) []byte {
	if src, ok := res.sources[name]; ok {
		return src
	}
	if res.sources == nil {
		res.sources = map[string][]byte{}
	}
	src, _ := os.ReadFile(name)
	res.sources[name] = src
	return src
}
