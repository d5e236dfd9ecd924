package ttlunit

import (
	"fmt"
	"go/ast"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/redisops"
)

// luaUse is how a Lua script uses a value as a timeout.
type luaUse uint8

const (
	// usesMillis: PEXPIRE, PSETEX, or SET … PX (a length in milliseconds).
	usesMillis luaUse = 1 << iota
	// usesSeconds: EXPIRE, SETEX, or SET … EX (a length in seconds).
	usesSeconds
	// usesAt: PEXPIREAT, EXPIREAT, SET … PXAT/EXAT (a point in time).
	usesAt
)

// Commands and SET/GETEX options, by how they read their timeout, as
// regexp alternations over the lower-cased script.
var useCmds = []struct {
	use  luaUse
	cmds string // the timeout follows the key
	opts string // the timeout follows the option
}{
	{usesMillis, "pexpire|psetex", "px"},
	{usesSeconds, "expire|setex", "ex"},
	{usesAt, "pexpireat|expireat", "pxat|exat"},
}

// argUse is how src uses ARGV[n] as a timeout: the whole timeout
// argument is ARGV[n], tonumber(ARGV[n]), or a local assigned exactly one
// of those. ARGV[n] / 1000000 or any other arithmetic is not a use: the
// script may convert the unit itself.
func argUse(src string, n int) luaUse {
	src = strings.ToLower(src)
	argv := `(?:tonumber\(\s*argv\[` + strconv.Itoa(n) + `\]\s*\)|argv\[` + strconv.Itoa(n) + `\])`
	refs := []string{argv}
	locals := regexp.MustCompile(`local\s+([a-z_][a-z0-9_]*)\s*=\s*` + argv)
	for _, m := range locals.FindAllStringSubmatchIndex(src, -1) {
		if valueEnds(src[m[1]:]) {
			refs = append(refs, `\b`+src[m[2]:m[3]]+`\b`)
		}
	}
	ref := `(?:` + strings.Join(refs, "|") + `)\s*[,)]`
	var use luaUse
	for _, u := range useCmds {
		r := regexp.MustCompile(`['"](?:` + u.cmds + `)['"]\s*,\s*[^,()]+,\s*` + ref + `|['"](?:` + u.opts + `)['"]\s*,\s*` + ref)
		if r.MatchString(src) {
			use |= u.use
		}
	}
	return use
}

// valueEnds reports whether the expression before rest ends there: rest
// starts (after blanks) with a statement separator, a line end, or a word
// other than the operators "and" and "or".
func valueEnds(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" || rest[0] == ';' || rest[0] == '\n' || rest[0] == '\r' {
		return true
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	if end < 0 {
		end = len(rest)
	}
	word := rest[:end]
	return word != "" && word != "and" && word != "or" && (rest[0] < '0' || rest[0] > '9')
}

// scriptArgs reports time.Duration values passed as script arguments that
// the script passes whole to a timeout: clients send them as a count of
// nanoseconds (or fail to encode them), which no Redis timeout takes. The
// finding is about what the script does with the argument, so it needs the
// script's text (a constant, or an embedded file: redisops): a script may
// not read the argument at all, or take nanoseconds and convert them
// itself. When the text is unknown (EVALSHA, a source passed in), it says
// nothing.
func (c *checker) scriptArgs(op *redisops.Op) {
	if op.ScriptSrc == "" {
		return
	}
	info := c.pass.TypesInfo
	for i, a := range op.Args {
		if !isDuration(info.TypeOf(a)) {
			continue
		}
		if use := argUse(op.ScriptSrc, i+1); use != 0 {
			c.durationArg(op, a, i+1, use)
		}
	}
}

func (c *checker) durationArg(op *redisops.Op, a ast.Expr, n int, use luaUse) {
	text := fixes.Text(c.pass.Fset, a)
	recv := text
	if !primary(a) {
		recv = "(" + text + ")"
	}
	head := fmt.Sprintf("%s, a time.Duration passed raw as script argument ARGV[%d], arrives as nanoseconds", text, n)
	d := analysis.Diagnostic{Pos: a.Pos(), End: a.End()}
	switch use {
	case usesMillis:
		d.Message = fmt.Sprintf("%s, a million times too long for PEXPIRE/PX; pass %s.Milliseconds()", head, recv)
		edits := []analysis.TextEdit{{Pos: a.End(), End: a.End(), NewText: []byte(".Milliseconds()")}}
		if !primary(a) {
			edits = []analysis.TextEdit{
				{Pos: a.Pos(), End: a.Pos(), NewText: []byte("(")},
				{Pos: a.End(), End: a.End(), NewText: []byte(").Milliseconds()")},
			}
		}
		d.SuggestedFixes = []analysis.SuggestedFix{{Message: "Pass " + recv + ".Milliseconds()", TextEdits: edits}}
	case usesSeconds:
		d.Message = fmt.Sprintf("%s, a billion times too long for EXPIRE/EX; pass int64(%s / time.Second)", head, recv)
	case usesMillis | usesSeconds:
		d.Message = fmt.Sprintf("%s, too long for both PEXPIRE/PX and EXPIRE/EX; pass each unit as its own argument", head)
	default: // usesAt, alone or with another use
		d.Message = fmt.Sprintf("%s, not the point in time PEXPIREAT, EXPIREAT, PXAT or EXAT take; pass time.Now().Add(%s).UnixMilli()", head, text)
	}
	if op.ScriptSrcExpr != nil {
		d.Related = []analysis.RelatedInformation{{Pos: op.ScriptSrcExpr.Pos(), End: op.ScriptSrcExpr.End(), Message: "script source"}}
	}
	c.r.Report(d)
}

// primary reports whether e can take a method call without parentheses.
func primary(e ast.Expr) bool {
	switch e.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.CallExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.ParenExpr:
		return true
	}
	return false
}
