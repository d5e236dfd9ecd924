#!/usr/bin/env bash
# services.sh BIN OUT.tsv: the services sweep. Runs the lockvet binary BIN
# over each Go service pinned in services.tsv (next to this script) and
# writes one line per finding to OUT.tsv:
#
#	repo  file  line  check  fix  message
#
# file is relative to the repository root, check is the finding's ID
# (LV201 ...), fix is yes when the finding carries a suggested fix. A
# package that does not load gives a line with check "error": the package
# in the file column and the error as the message (addresses in messages
# read <url>); a module whose go mod download fails gives a line with check
# "download" (its packages may still load: those analyzed need not use the
# module that failed). The end of OUT.tsv is a summary in lines starting
# with '#': findings and findings with a fix per service, errors, findings
# by check, and the totals; it is also printed.
#
# Each repository comes from a bare git copy at $MIRROR/OWNER+NAME/repo
# (default MIRROR=/work/.mirror). Its pinned commit is extracted to
# $WORK/OWNER+NAME@COMMIT (default WORK=${TMPDIR:-/tmp}/lockvet-services),
# once; a blob the copy lacks (large files are left out) becomes an empty
# file, so that a //go:embed of it still loads. In the module directory the
# script runs go mod download, then BIN -json on the packages, both with
# GOFLAGS=-mod=mod and GOWORK=off.
#
# Environment: ONLY=REGEX runs only the services whose repo matches REGEX
# (grep -E); LIST=FILE reads another list; MIRROR and WORK as above.
set -euo pipefail

if [ $# -ne 2 ]; then
	echo "usage: services.sh BIN OUT.tsv" >&2
	exit 2
fi
bin=$1
out=$2
case $bin in
/*) ;;
*) bin=$PWD/$bin ;;
esac
if [ ! -x "$bin" ]; then
	echo "services.sh: $bin is not an executable" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
list=${LIST:-$here/services.tsv}
mirror=${MIRROR:-/work/.mirror}
work=${WORK:-${TMPDIR:-/tmp}/lockvet-services}
only=${ONLY:-}
mkdir -p "$work"

log() { echo "services: $*" >&2; }

# extract GITDIR COMMIT DIR writes the tree of COMMIT to DIR, with an empty
# file for each blob the copy does not have.
extract() {
	local git=$1 commit=$2 dir=$3 tmp
	tmp=$(mktemp -d)
	git -c core.quotePath=false --git-dir="$git" ls-tree -r --format='%(objecttype) %(objectname)%x09%(path)' "$commit" |
		awk -F'\t' '$1 ~ /^blob /' >"$tmp/tree"
	cut -f1 "$tmp/tree" | cut -d' ' -f2 |
		git --git-dir="$git" cat-file --batch-check='%(objectname) present' |
		paste - <(cut -f2- "$tmp/tree") |
		awk -F'\t' '$1 ~ / missing$/ { print $2 }' >"$tmp/missing"
	local -a spec=(.)
	local p
	while IFS= read -r p; do
		spec+=(":(exclude,literal)$p")
	done <"$tmp/missing"
	mkdir -p "$dir"
	# A private index: the shared copy's own index and HEAD stay as they are.
	GIT_INDEX_FILE=$tmp/index git -c core.autocrlf=false --git-dir="$git" --work-tree="$dir" \
		checkout -f "$commit" -- "${spec[@]}"
	while IFS= read -r p; do
		log "  $p: blob missing in the copy, written empty"
		mkdir -p "$dir/$(dirname "$p")"
		: >"$dir/$p"
	done <"$tmp/missing"
	rm -rf "$tmp"
}

# tsv REPO ROOT turns BIN -json's tree on stdin into finding and error lines.
tsv() {
	jq -r --arg repo "$1" --arg root "$2/" '
		def clean: gsub("[\t\n\r]+"; " ") | gsub("[a-z]+://[^ ]+"; "<url>");
		to_entries[] | .key as $pkg | .value | to_entries[] |
		if (.value | type) == "array" then
			.value[] |
			(.posn | capture("^(?<f>.*):(?<l>[0-9]+):(?<c>[0-9]+)$")) as $p |
			[$repo, ($p.f | ltrimstr($root)), $p.l, .category,
			 (if ((.suggested_fixes // []) | length) > 0 then "yes" else "no" end),
			 (.message | clean)]
		else
			[$repo, $pkg, "", "error", "", (.value.error | clean | .[0:400])]
		end | @tsv'
}

body=$(mktemp)
trap 'rm -f "$body"' EXIT
nrun=0
while IFS=$'\t' read -r repo commit moddir pkgs note; do
	case $repo in '' | '#'*) continue ;; esac
	if [ -n "$only" ] && ! grep -Eq -- "$only" <<<"$repo"; then
		continue
	fi
	: "$note"
	nrun=$((nrun + 1))
	name=${repo/\//+}
	git=$mirror/$name/repo
	dir=$work/$name@$commit
	start=$SECONDS
	log "$repo ($moddir: $pkgs)"
	if [ ! -d "$git" ]; then
		printf '%s\t\t\terror\t\tno git copy at %s\n' "$repo" "$git" >>"$body"
		continue
	fi
	if [ ! -e "$dir/.services-extracted" ]; then
		rm -rf "$dir"
		if ! extract "$git" "$commit" "$dir"; then
			printf '%s\t\t\terror\t\tcannot extract %s\n' "$repo" "$commit" >>"$body"
			continue
		fi
		: >"$dir/.services-extracted"
	fi
	read -r -a patterns <<<"$pkgs"
	mod=$dir/$moddir
	if ! dl=$(cd "$mod" && GOFLAGS=-mod=mod GOWORK=off go mod download 2>&1); then
		# Not fatal: the packages analyzed may not need the module that
		# failed (one the proxy refuses, say); BIN reports what does not load.
		printf '%s\t%s\t\tdownload\t\tgo mod download: %s\n' "$repo" "$moddir" "$(tr '\t\n' '  ' <<<"$dl" | sed -E 's#[a-z]+://[^ ]+#<url>#g' | cut -c1-400)" >>"$body"
	fi
	status=0
	(cd "$mod" && GOFLAGS=-mod=mod GOWORK=off "$bin" -json "${patterns[@]}") >"$work/$name.json" 2>"$work/$name.stderr" || status=$?
	if [ -s "$work/$name.json" ] && tsv "$repo" "$dir" <"$work/$name.json" >"$work/$name.tsv"; then
		sort -u "$work/$name.tsv" >>"$body"
	else
		printf '%s\t%s\t\terror\t\tlockvet exit %s: %s\n' "$repo" "$moddir" "$status" "$(tr '\t\n' '  ' <"$work/$name.stderr" | sed -E 's#[a-z]+://[^ ]+#<url>#g' | cut -c1-400)" >>"$body"
	fi
	log "  $(awk -F'\t' -v r="$repo" '$1 == r && $4 != "error" && $4 != "download"' "$body" | wc -l) findings, $(awk -F'\t' -v r="$repo" '$1 == r && $4 == "error"' "$body" | wc -l) errors, $((SECONDS - start))s"
done <"$list"

{
	printf 'repo\tfile\tline\tcheck\tfix\tmessage\n'
	cat "$body"
	awk -F'\t' -v n="$nrun" '
		$4 == "download" { dl[$1]++; dls++; next }
		$4 == "error" { err[$1]++; errs++; next }
		{ f[$1]++; total++; if ($5 == "yes") { fx[$1]++; fixed++ }; byid[$4]++ }
		END {
			for (r in f) printf "1\t# %s: %d findings, %d with a fix\n", r, f[r], fx[r]
			for (r in err) printf "2\t# %s: %d errors (packages that did not load)\n", r, err[r]
			for (r in dl) printf "2\t# %s: go mod download failed (see its download line)\n", r
			for (id in byid) printf "3\t# %s: %d\n", id, byid[id]
			printf "4\t# total: %d services, %d findings, %d with a fix, %d errors, %d download failures\n", n, total, fixed, errs, dls
		}' "$body" | sort | cut -f2-
} >"$out"
grep '^#' "$out"
