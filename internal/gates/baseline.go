package gates

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/lockvet/lockvet/internal/findings"
)

// A baseline is the findings a project has accepted for now: with
// -baseline FILE lockvet reports only findings that are not in it, and
// -write-baseline FILE records the current ones. Entries name a finding
// by what it is, not where it is (findings.Identity), so moving code, adding
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

type baselineEntry struct {
	findings.Identity
	Count int `json:"count,omitempty"` // omitted when 1
}

type baselineFile struct {
	Version  int             `json:"lockvet-baseline"`
	Findings []baselineEntry `json:"findings"`
}

// WriteBaseline writes the identities of findings to path.
func WriteBaseline(path string, res *findings.Result, fs []*findings.Finding) error {
	counts := map[findings.Identity]int{}
	for _, f := range fs {
		counts[res.Identify(f)]++
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

// ReadBaseline reads a baseline written by WriteBaseline.
func ReadBaseline(path string) (map[findings.Identity]int, error) {
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
	counts := map[findings.Identity]int{}
	for _, e := range b.Findings {
		counts[e.Identity] += max(e.Count, 1)
	}
	return counts, nil
}

// NotInBaseline returns the findings the baseline does not account for.
// A baseline entry absorbs as many findings as its count. Entries are
// first matched exactly; entries left over then match findings that
// differ only in their message, so that a reworded message in a newer
// lockvet does not bring back every accepted finding.
func NotInBaseline(res *findings.Result, fs []*findings.Finding, base map[findings.Identity]int) []*findings.Finding {
	base = maps.Clone(base)
	loose := func(id findings.Identity) findings.Identity { id.Message = ""; return id }
	var unmatched []*findings.Finding
	for _, f := range fs {
		if id := res.Identify(f); base[id] > 0 {
			base[id]--
		} else {
			unmatched = append(unmatched, f)
		}
	}
	left := map[findings.Identity]int{}
	for id, n := range base {
		left[loose(id)] += n
	}
	var out []*findings.Finding
	for _, f := range unmatched {
		if id := loose(res.Identify(f)); left[id] > 0 {
			left[id]--
		} else {
			out = append(out, f)
		}
	}
	return out
}
