#!/bin/sh
# Vendors the libraries of the table phone's offline mode (issue 18) from the npm registry
# into static/vendor/: Workbox's browser builds (the service worker) and idb (IndexedDB).
# No CDN at run time: the service worker loads them from our own static files.
#
#   sh static/vendor/pwa_vendor.sh            # the versions below
#   WORKBOX=7.4.1 IDB=8.0.4 sh static/vendor/pwa_vendor.sh
#
# Needs npm. Takes the production builds as published (`npm pack`), strips the trailing
# sourceMappingURL comments (the .map files are not shipped; whitenoise's manifest storage
# would fail on the missing maps) and writes VERSION files. Commit the result.
set -eu
WORKBOX=${WORKBOX:-7.4.1}
IDB=${IDB:-8.0.4}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

unpack() {  # package version → $WORK/package-name/
    (cd "$WORK" && npm pack --silent "$1@$2" >/dev/null)
    mkdir -p "$WORK/$1"
    tar -xzf "$WORK/$1-$2.tgz" -C "$WORK/$1" --strip-components=1
}

strip_map() {  # source target
    sed '/^\/\/# sourceMappingURL=/d' "$1" > "$2"
}

rm -rf "$HERE/workbox" "$HERE/idb"
mkdir -p "$HERE/workbox" "$HERE/idb"
for name in workbox-sw workbox-core workbox-routing workbox-strategies workbox-precaching; do
    unpack "$name" "$WORKBOX"
done
strip_map "$WORK/workbox-sw/build/workbox-sw.js" "$HERE/workbox/workbox-sw.js"
for name in workbox-core workbox-routing workbox-strategies workbox-precaching; do
    strip_map "$WORK/$name/build/$name.prod.js" "$HERE/workbox/$name.prod.js"
done
cp "$WORK/workbox-sw/LICENSE" "$HERE/workbox/LICENSE"
printf 'Workbox %s (npm: workbox-sw, workbox-core, workbox-routing, workbox-strategies,\nworkbox-precaching), the browser production builds, by static/vendor/pwa_vendor.sh.\n' \
    "$WORKBOX" > "$HERE/workbox/VERSION"

unpack idb "$IDB"
strip_map "$WORK/idb/build/umd.js" "$HERE/idb/idb.umd.js"
cp "$WORK/idb/LICENSE" "$HERE/idb/LICENSE"
printf 'idb %s (npm: idb), build/umd.js (the global `idb`), by static/vendor/pwa_vendor.sh.\n' \
    "$IDB" > "$HERE/idb/VERSION"
