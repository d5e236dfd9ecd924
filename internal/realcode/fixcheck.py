#!/usr/bin/env python3
"""fixcheck.py BIN OUTDIR: apply BIN's fixes to each corpus group that has one
and check the result. Needs OUTDIR/GROUP.json from corpus.sh BIN OUTDIR.

Per group with at least one fix: copy the checkout to a temp dir, run
BIN -fix on the group's packages (again while it reports overlapping fixes,
3 passes at most), then
  build  go build ./... of the whole module_dir (fixes also edit callers in
         other packages); ok when it passes or prints no error line that the
         unfixed checkout does not print; when that takes longer than
         FIXCHECK_TIMEOUT seconds (default 1800), go build of the packages
         whose files the fixes changed, and the line says so;
  vet    go vet of the packages, compared the same way with the unfixed checkout;
  silent BIN -json again: no finding left where a fix was. Positions move, so a
         finding is matched by file + check ID + enclosing top-level func; a
         fixed key is silent when the fixed run has no more findings of that
         key than the unfixed run had findings without a fix there.
Prints one line per group and a total; exit 1 if any group fails.
ONLY=REGEX checks only the groups whose name matches.
SERVICES=services.tsv checks the services sweep instead: OUTDIR is then the
WORK directory of services.sh, with its checkouts and NAME.json outputs.
"""
import collections, os, re, shutil, subprocess, sys, tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpuslib  # noqa: E402

binary, outdir = os.path.abspath(sys.argv[1]), sys.argv[2]
cases = os.path.join(os.environ.get("LOCKVET_CORPUS", "/work/shared/corpus"), "cases.tsv")
work = os.environ.get("CORPUS_WORK", os.path.expanduser("~/.cache/lockvet-corpus"))
if os.environ.get("SERVICES"):
    # The services sweep instead: OUTDIR is services.sh's WORK, which holds
    # both the checkouts and each service's NAME.json.
    work = outdir
    all_groups = corpuslib.services(os.environ["SERVICES"])
else:
    all_groups = corpuslib.groups(cases)
env = dict(os.environ, GOFLAGS="-mod=mod", GOTOOLCHAIN="local")


limit = int(os.environ.get("FIXCHECK_TIMEOUT", "1800"))
only = re.compile(os.environ.get("ONLY", ""))


def run(cmd, cwd):
    """The finished command; on a timeout, returncode None and a line saying so."""
    try:
        return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, None, "", f"timed out after {limit}s: {' '.join(cmd)}")


def errlines(p, root):
    """The error lines of a go command, without positions or the checkout's path."""
    out = collections.Counter()
    for l in (p.stdout + p.stderr).splitlines():
        l = re.sub(r"\.go:\d+(:\d+)?", ".go", l.replace(root, "ROOT")).strip()
        # The linker's temporary names differ from run to run.
        l = re.sub(r"/tmp/go-(link|build)-?\d+|\$WORK/b\d+|build-id=0x[0-9a-f]+", "TMP", l)
        # "go: downloading m v": the first build of a copy fetches what the
        # checkout's build already had; not an error.
        if l and not l.startswith("#") and not l.startswith("go: downloading "):
            out[l] += 1
    return out


def compare(cmd, fixed, orig, froot, oroot):
    """ok, or the error lines the fixed tree adds to the unfixed one's."""
    p = run(cmd, fixed)
    if p.returncode == 0:
        return "ok", []
    if p.returncode is None:
        return "TIMEOUT", [p.stderr]
    new = errlines(p, froot) - errlines(run(cmd, orig), oroot)
    return ("ok(as before)" if not new else "FAIL"), list(new)


def changed(fixed, orig):
    """The packages (./dir) of the module at fixed whose .go files differ from orig's."""
    dirs = set()
    for dp, _, files in os.walk(fixed):
        for fn in files:
            if not fn.endswith(".go"):
                continue
            f = os.path.join(dp, fn)
            o = os.path.join(orig, os.path.relpath(f, fixed))
            try:
                with open(f, "rb") as a, open(o, "rb") as b:
                    same = a.read() == b.read()
            except OSError:
                same = False
            if not same:
                dirs.add("./" + os.path.relpath(dp, fixed))
    return sorted(dirs) or ["./..."]


def keys(fs, fixed):
    return collections.Counter((f[0], f[2], f[5]) for f in fs if f[0] and f[3] == fixed)


total = collections.Counter()
for name, root, d, pkgs, _ in all_groups:
    if not only.search(name):
        continue
    try:
        with open(os.path.join(outdir, name + ".json"), encoding="utf-8") as f:
            before = corpuslib.findings(f.read(), os.path.join(work, root), os.path.join(work, d))
    except OSError:
        continue
    nfix = sum(1 for f in before if f[3])
    if not nfix:
        continue
    total["groups"] += 1
    tmp = tempfile.mkdtemp(prefix="fixcheck-")
    try:
        froot = os.path.join(tmp, root)
        shutil.copytree(os.path.join(work, root), froot, symlinks=True)
        fdir, odir = os.path.join(tmp, d), os.path.join(work, d)
        fixed = passes = 0
        for passes in range(1, 4):
            p = run([binary, "-fix"] + pkgs, fdir)
            m = re.search(r"fixed (\d+) finding", p.stderr)
            fixed += int(m.group(1)) if m else 0
            if "overlap other fixes" not in p.stderr:
                break
        applied = "yes" if fixed >= nfix else f"PARTIAL {fixed}/{nfix}" if fixed else "NO"
        if fixed == 0:
            print(f"{name}: -fix: {p.stderr.strip()[:300]}")
        build, berr = compare(["go", "build", "./..."], fdir, odir, froot, os.path.join(work, root))
        if build == "TIMEOUT":
            # A module too big to build in the limit: build the packages
            # whose files the fixes changed instead, and say so.
            build, berr = compare(["go", "build"] + changed(fdir, odir), fdir, odir, froot, os.path.join(work, root))
            build += "(changed packages; ./... timed out)"
        vet, verr = compare(["go", "vet"] + pkgs, fdir, odir, froot, os.path.join(work, root))
        after = corpuslib.findings(run([binary, "-json"] + pkgs, fdir).stdout, froot, fdir)
        left_keys, had, was_unfixed = keys(after, True) + keys(after, False), keys(before, True), keys(before, False)
        loud = [k for k in had if left_keys[k] > was_unfixed[k]]
        silent = "yes" if not loud else f"NO {len(loud)}"
        ok = applied == "yes" and build.startswith("ok") and vet.startswith("ok") and not loud
        total["ok"] += ok
        total["fixes"] += nfix; total["applied"] += fixed
        print(f"{name}: fixes {nfix}, applied {applied} ({passes} pass), build {build}, vet {vet}, silent {silent}")
        for l in berr[:5]:
            print(f"    build: {l[:220]}")
        for l in verr[:5]:
            print(f"    vet: {l[:220]}")
        for k in loud:
            print(f"    left: {k[0]} {k[1]} in {k[2]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
print(f"total: {total['ok']}/{total['groups']} groups pass; {total['applied']} of {total['fixes']} fixes applied")
sys.exit(0 if total["ok"] == total["groups"] else 1)
