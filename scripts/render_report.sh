#!/usr/bin/env bash
# Render a `tsume report` HTML page to a PNG with headless Chromium, to see
# how it looks in a browser.
#
#   scripts/render_report.sh report.html [out.png] [WIDTHxHEIGHT]
#
# Needs Chromium (Debian: `apt-get install -y chromium`) and a Japanese font
# (Debian: `apt-get install -y fonts-noto-cjk`); both are installed when
# missing and the script runs as root. The page is rendered at 1000x1600 by
# default; pass e.g. 1000x2400 for a longer page.
set -euo pipefail

html=${1:?usage: render_report.sh report.html [out.png] [WIDTHxHEIGHT]}
png=${2:-${html%.*}.png}
size=${3:-1000x1600}

chromium_bin=""
for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then chromium_bin=$c; break; fi
done
if [[ -z $chromium_bin || -z $(fc-list :lang=ja 2>/dev/null | head -1) ]]; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
            chromium fonts-noto-cjk >/dev/null
        chromium_bin=chromium
    fi
fi
if [[ -z $chromium_bin ]] || ! command -v "$chromium_bin" >/dev/null 2>&1; then
    echo "render_report.sh: Chromium not found (apt-get install -y chromium)" >&2
    exit 2
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
abs=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
out_abs=$(cd "$(dirname "$png")" && pwd)/$(basename "$png")

args=(--headless --disable-gpu --disable-background-networking
      --disable-component-update --disable-sync --no-first-run
      --hide-scrollbars --user-data-dir="$profile"
      --screenshot="$out_abs" --window-size="${size/x/,}")
if [[ $(id -u) -eq 0 ]]; then args+=(--no-sandbox); fi

"$chromium_bin" "${args[@]}" "file://$abs" >/dev/null 2>&1
test -s "$out_abs"
echo "$out_abs"
