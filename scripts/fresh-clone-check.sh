#!/usr/bin/env bash
# What a new user (and CI) meets: clones this repository's HEAD into a temporary folder, with the
# shared product documents beside it as ../shared, and runs `bash .ci/run` (README's `npm ci && npm test`)
# with XDG_CACHE_HOME pointing at an empty folder, so nothing installed earlier is reused (Node 24 and
# code-server are installed again: about 10 minutes on 2 cores). Prints the time and the `all:` summary
# line, keeps the full log, and exits with .ci/run's status.
#
# Usage: bash scripts/fresh-clone-check.sh [--keep]     (--keep leaves the temporary folder for a look)
# Environment: APIWB_SHARED_DIR, the folder linked as ../shared (default: ../shared beside this clone).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
keep=0
[ "${1:-}" = --keep ] && keep=1
shared="${APIWB_SHARED_DIR:-$root/../shared}"
[ -d "$shared" ] || { echo "fresh-clone-check: no shared folder at $shared (set APIWB_SHARED_DIR)" >&2; exit 2; }
shared="$(cd "$shared" && pwd)"
head="$(git -C "$root" rev-parse HEAD)"
if [ -n "$(git -C "$root" status --porcelain)" ]; then
  echo "fresh-clone-check: note: uncommitted changes in $root are not part of the check (HEAD $head is)" >&2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/apiwb-fresh-XXXXXX")"
cleanup() { if [ "$keep" = 1 ]; then echo "fresh-clone-check: kept $work"; else rm -rf "$work"; fi; }
trap cleanup EXIT
git clone --quiet --no-hardlinks "$root" "$work/api-workbench"
git -C "$work/api-workbench" checkout --quiet --detach "$head"
ln -s "$shared" "$work/shared"
mkdir "$work/cache"

log="$work/run.log"
echo "fresh-clone-check: $head in $work/api-workbench, XDG_CACHE_HOME=$work/cache"
started=$(date +%s)
status=0
# A fresh user's shell: no npm variables from an outer npm, the empty cache folder.
unset_npm=()
for name in $(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p'); do unset_npm+=(-u "$name"); done
( cd "$work/api-workbench" && env "${unset_npm[@]}" XDG_CACHE_HOME="$work/cache" bash .ci/run ) >"$log" 2>&1 || status=$?
elapsed=$(( $(date +%s) - started ))
summary="$(grep -E '^all: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -1 || true)"
echo "fresh-clone-check: bash .ci/run exited $status after $((elapsed / 60)) min $((elapsed % 60)) s"
echo "fresh-clone-check: ${summary:-no summary line (see the log)}"
cp "$log" "$root/test-output/fresh-clone-check.log" 2>/dev/null || { mkdir -p "$root/test-output" && cp "$log" "$root/test-output/fresh-clone-check.log"; }
echo "fresh-clone-check: log in test-output/fresh-clone-check.log"
if [ -z "$summary" ] && [ "$status" = 0 ]; then status=1; fi
exit "$status"
