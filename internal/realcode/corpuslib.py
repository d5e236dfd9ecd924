#!/usr/bin/env python3
"""Shared by corpus.sh and fixcheck.py: the corpus's run groups and findings.

corpuslib.py groups CASES             one line per group: NAME, checkout dir, packages
corpuslib.py findings CASES OUT       findings.tsv of OUT/NAME.json on stdout,
                                      the summary on stderr
"""
import collections, json, os, re, sys

NOFIX = re.compile(r"\(no fix: ")  # a reason may hold parentheses of its own


def groups(cases):
    """(name, dir, pkgs, repo) per (repo, commit, module_dir) of builds=yes rows,
    dir relative to CORPUS_WORK, as score.py checks them out."""
    with open(cases, encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(head, l.rstrip("\n").split("\t"))) for l in f if l.strip()]
    g = collections.defaultdict(set)
    for r in rows:
        if r["builds"] == "yes":
            g[(r["repo"], r["commit"], r["module_dir"])].add(r["pkg"])
    out = []
    for (repo, commit, mdir), pkgs in sorted(g.items()):
        root = repo.replace("/", "+") + "@" + commit[:12]
        name = root + ("" if mdir == "." else "_" + mdir.replace("/", "_"))
        out.append((name, root, os.path.normpath(os.path.join(root, mdir)), sorted(pkgs), repo))
    return out


def services(path):
    """groups' tuples for the services sweep's list (services.sh): name
    OWNER+NAME (services.sh keeps its -json output as NAME.json), dir
    OWNER+NAME@COMMIT relative to services.sh's WORK, the package patterns."""
    out = []
    with open(path, encoding="utf-8") as f:
        for l in f:
            fs = l.rstrip("\n").split("\t")
            if len(fs) < 4 or not fs[0] or fs[0].startswith("#"):
                continue
            repo, commit, mdir, pkgs = fs[:4]
            root = repo.replace("/", "+") + "@" + commit
            out.append((repo.replace("/", "+"), root, os.path.normpath(os.path.join(root, mdir)), pkgs.split(), repo))
    return out


def diagnostics(text):
    """(analyzer, diagnostic) of a -json output; errors as ("error", {...})."""
    dec, i = json.JSONDecoder(), 0
    while (j := text.find("{", i)) >= 0:
        try:
            obj, i = dec.raw_decode(text, j)
        except json.JSONDecodeError:
            i = j + 1
            continue
        for byan in obj.values():
            for an, ds in byan.items():
                if isinstance(ds, dict):
                    yield "error", {"message": ds.get("error", "")}
                for d in ds if isinstance(ds, list) else []:
                    yield an, d


def enclosing(path, line):
    """Name of the top-level func declared last before line (gofmt puts it at column 0)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()[:line]
    except OSError:
        return "?"
    for l in reversed(lines):
        m = re.match(r"func\s+(?:\(\s*\w*\s*\*?\s*(\w+)[^)]*\)\s*)?(\w+)", l)
        if m:
            return (m.group(1) + "." if m.group(1) else "") + m.group(2)
    return "-"


def findings(text, root, mdir):
    """(file from repo root, line, ID, has_fix, message, func) of a -json output
    run in mdir; errors as (None, 0, "error", False, message, "")."""
    out = []
    for an, d in diagnostics(text):
        m = re.match(r"(.*\.go):(\d+)", d.get("posn", ""))
        if an == "error" or not m:
            out.append((None, 0, "error", False, d.get("message", ""), ""))
            continue
        full = os.path.realpath(os.path.join(mdir, m.group(1)))
        ln = int(m.group(2))
        out.append((os.path.relpath(full, os.path.realpath(root)), ln, d.get("category") or an,
                    bool(d.get("suggested_fixes")), d.get("message", "").replace("\t", " ").replace("\n", " "),
                    enclosing(full, ln)))
    return out


def main():
    if sys.argv[1:2] == ["groups"]:
        for name, _, d, pkgs, _ in groups(sys.argv[2]):
            print(name, d, " ".join(pkgs), sep="\t")
        return
    cases, outdir = sys.argv[2:4]
    work = os.environ.get("CORPUS_WORK", os.path.expanduser("~/.cache/lockvet-corpus"))
    n, fix, reason, byid, errs = 0, 0, 0, collections.defaultdict(lambda: [0, 0]), 0
    print("repo", "file", "line", "check", "has_fix", "message", sep="\t")
    for name, root, d, _, repo in groups(cases):
        try:
            with open(os.path.join(outdir, name + ".json"), encoding="utf-8") as f:
                text = f.read()
        except OSError:
            text = ""
        for file, ln, cid, hf, msg, _ in findings(text, os.path.join(work, root), os.path.join(work, d)):
            if file is None:
                errs += 1
                print(f"{name}: error: {msg[:200]}", file=sys.stderr)
                continue
            n += 1; fix += hf; reason += (not hf) and bool(NOFIX.search(msg))
            byid[cid][0] += hf; byid[cid][1] += 1
            print(repo, file, ln, cid, "yes" if hf else "no", msg, sep="\t")
    ids = ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(byid.items()))
    print(f"findings {n}, with a fix {fix} ({ids}), without fix with reason {reason}/{n - fix}, errors {errs}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
