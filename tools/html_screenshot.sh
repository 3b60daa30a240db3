#!/bin/sh
# Shows locksmith's HTML report in a real browser: writes the report on a C program with
# `locksmith check --format html`, then has headless Chromium take two screenshots, the index
# with its first warning opened and the source page of the first file. Look at the PNG files.
#
#   tools/html_screenshot.sh [OUT_DIR] [FILES...]
#
# OUT_DIR defaults to target/html-screenshot; FILES to the bundled webcache program. The
# locksmith binary is $LOCKSMITH, or built with cargo. Chromium (`chromium` or
# `chromium-browser`, Debian's package `chromium`) must be installed; without it the script says
# so and exits with status 77 (skipped).
set -eu
cd "$(dirname "$0")/.."
out=${1:-target/html-screenshot}
[ $# -gt 0 ] && shift
if [ $# -eq 0 ]; then
    set -- tests/programs/webcache/*.c
fi
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "html_screenshot: no chromium installed (apt-get install chromium); skipped" >&2
    exit 77
fi
if [ -z "${LOCKSMITH:-}" ]; then
    cargo build --quiet
    LOCKSMITH=${CARGO_TARGET_DIR:-target}/debug/locksmith
fi
mkdir -p "$out"
status=0
"$LOCKSMITH" check --format html -o "$out/report" "$@" || status=$?
if [ "$status" -gt 1 ]; then
    echo "html_screenshot: locksmith failed (exit status $status)" >&2
    exit "$status"
fi
dir=$(cd "$out/report" && pwd)
page=$(cd "$dir" && ls src-1-*.html 2>/dev/null | head -n 1)
shoot() {
    # --no-sandbox: the sandbox cannot start as root (CI); the page loads nothing anyway.
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size=1280,"$3" --screenshot="$2" "file://$dir/$1" >/dev/null 2>&1
    echo "html_screenshot: $2"
}
# A copy of the index with its first warning open (a link to `#w1` would open it too, but
# scroll the page, which headless screenshots show badly).
sed '0,/<details class="warning"/s//<details open class="warning"/' "$dir/index.html" \
    >"$dir/index-first-open.html"
shoot index-first-open.html "$out/index.png" 2400
if [ -n "$page" ]; then
    shoot "$page" "$out/source.png" 1200
fi
