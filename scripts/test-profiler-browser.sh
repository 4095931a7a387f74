#!/usr/bin/env bash
# The profiler's "Locks" panel in a real headless browser. Runs
# adapters/e2e/symfony_profiler_panel.php with E2E_SERVE=1 (a Symfony
# application with WebProfilerBundle served by `php -S` on a free loopback
# port; one request waits for a lock another process holds 300 ms, one waiter
# ahead of it), then Debian's Chromium, on this machine, loads that request's
# panel: its DOM (--dump-dom) must show the lock's key, its wait and its queue
# position, and its screenshot (--screenshot) must be a PNG of the window's
# size, kept as target/profiler-panel/panel.png with the DOM beside it.
#   scripts/test-profiler-browser.sh            the application on this machine
#   scripts/test-profiler-browser.sh CELL_DIR   the application in a matrix cell's
#       chroot (mounted, built: scripts/matrix.sh calls it so for the newest
#       cell); the chroot shares this machine's network, the browser runs here
# Exit 0 passed, 1 failed, 77 skipped (no chromium here: scripts/deps.sh
# browser; or the application's packages missing where it runs). Last line:
# `browser: passed|FAILED|skipped (...)`.
set -uo pipefail
cd "$(dirname "$0")/.."
cell=${1:-}
out=$PWD/target/profiler-panel
mkdir -p "$out"

chromium=$(command -v chromium || true)
if [[ -z $chromium ]]; then
  echo "browser: skipped (no chromium on this machine: scripts/deps.sh browser)"
  exit 77
fi

if [[ -n $cell ]]; then
  run=(chroot "$cell" env -i HOME=/root PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8
       PHP_VERSION="${PHP_VERSION:-8.4}" E2E_SERVE=1 REDIS_LOCK_SO=/src/target/release/libredis_lock.so
       bash -c 'cd /src && source scripts/cell-php.sh && exec php -d extension=$REDIS_LOCK_SO adapters/e2e/symfony_profiler_panel.php')
else
  so=$(realpath "${REDIS_LOCK_SO:-target/release/libredis_lock.so}")
  run=(env E2E_SERVE=1 REDIS_LOCK_SO="$so" php -d "extension=$so" adapters/e2e/symfony_profiler_panel.php)
fi

profile=$(mktemp -d /tmp/redis_lock_chromium.XXXXXX)
log=$out/application.log
: >"$log"
coproc APP { timeout -k 5 60 "${run[@]}" 2>&1; }
app_in=${APP[1]}
finish() { # finish STATUS WHAT
  { echo stop >&"$app_in"; } 2>/dev/null
  wait "$APP_PID" 2>/dev/null
  rm -rf "$profile"
  case $1 in
    0) echo "browser: passed ($2)" ;;
    77) echo "browser: skipped ($2)" ;;
    *) echo "application's output:"; sed 's/^/    /' "$log"; echo "browser: FAILED ($2)" ;;
  esac
  exit "$1"
}

# The application's checks, then `panel URL wait=MS position=N`.
url='' wait=''
while IFS= read -r -t 40 line <&"${APP[0]}"; do
  echo "$line" >>"$log"
  case $line in
    'panel '*) read -r _ url wait position <<<"$line"; wait=${wait#wait=}; position=${position#position=}; break ;;
    'skip: '*) finish 77 "${line#skip: }" ;;
    FAIL*) finish 1 "the application's own checks" ;;
  esac
done
[[ -n $url ]] || finish 1 "no panel URL from the application"
echo "panel: $url (wait $wait ms, position $position)"
rm -f "$out"/panel.png "$out"/panel.dom.html "$out"/chromium.log

flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --user-data-dir="$profile" --window-size=1280,900 --hide-scrollbars)
timeout -k 5 30 "$chromium" "${flags[@]}" --dump-dom "$url" >"$out/panel.dom.html" 2>>"$out/chromium.log" \
  || finish 1 "chromium --dump-dom failed (see $out/chromium.log)"
dom=$out/panel.dom.html
grep -q 'data-lock-key="">report:42<\|data-lock-key>report:42<' "$dom" || finish 1 "the DOM lacks the lock's key (report:42): $dom"
grep -q ">$wait<" "$dom" || finish 1 "the DOM lacks the lock's wait ($wait ms): $dom"
grep -q "data-lock-position[^>]*>$position<" "$dom" || finish 1 "the DOM lacks the lock's position ($position): $dom"
echo "ok - the panel's DOM shows key report:42, wait $wait ms, position $position"

timeout -k 5 30 "$chromium" "${flags[@]}" --screenshot="$out/panel.png" "$url" >>"$out/chromium.log" 2>&1 \
  || finish 1 "chromium --screenshot failed (see $out/chromium.log)"
# A PNG (signature, IHDR) of the window's size, and not a blank one.
php -r '
  $png = (string) @file_get_contents($argv[1]);
  if (strncmp($png, "\x89PNG\r\n\x1a\n", 8) !== 0 || substr($png, 12, 4) !== "IHDR") { fwrite(STDERR, "not a PNG\n"); exit(1); }
  [, $w, $h] = unpack("N2", substr($png, 16, 8)) + [0, 0, 0];
  $w = unpack("N", substr($png, 16, 4))[1]; $h = unpack("N", substr($png, 20, 4))[1];
  if ($w !== 1280 || $h !== 900 || strlen($png) < 20000) { fwrite(STDERR, "PNG {$w}x{$h}, " . strlen($png) . " bytes\n"); exit(1); }
  echo "ok - screenshot: PNG {$w}x{$h}, ", strlen($png), " bytes\n";
' "$out/panel.png" || finish 1 "the screenshot is no PNG of 1280x900 with content: $out/panel.png"
finish 0 "screenshot $out/panel.png"
