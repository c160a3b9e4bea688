#!/bin/sh
# Prints the DEBIAN/control file for the staged package in ROOT:
#   packaging/deb-control.sh ROOT VERSION ARCH
# Depends is worked out as dpkg-shlibdeps does without its debian/ folder: each library the
# binary needs (readelf's NEEDED), found with ldd, its package with dpkg -S, and the
# dependency that package declares for it in its shlibs file (/var/lib/dpkg/info/*.shlibs).
set -eu
root=$1 version=$2 arch=$3
bin=$root/usr/bin/survey

depends_on() { # SONAME PATH -> "package (>= version)" or "package"
    soname=$1 path=$2
    owner=
    for candidate in "$path" "/usr$path" "${path#/usr}" "$(readlink -f "$path")"; do
        owner=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$owner" ] && break
    done
    [ -n "$owner" ] || { echo "deb-control: no package owns $path ($soname)" >&2; exit 1; }
    lib=${soname%%.so.*} major=${soname#*.so.}
    for shlibs in "/var/lib/dpkg/info/$owner:$arch.shlibs" "/var/lib/dpkg/info/$owner.shlibs"; do
        if [ -f "$shlibs" ]; then
            line=$(awk -v l="$lib" -v m="$major" '$1 == l && $2 == m { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' "$shlibs")
            [ -n "$line" ] && { echo "$line"; return; }
        fi
    done
    echo "$owner"
}

needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
libraries=$(ldd "$bin")
found=$(mktemp)
trap 'rm -f "$found"' EXIT
for soname in $needed; do
    # "libc.so.6 => /lib/…/libc.so.6 (0x…)", or the loader alone: "/lib64/ld-linux-x86-64.so.2 (0x…)"
    path=$(printf '%s\n' "$libraries" | awk -v s="$soname" '
        $1 == s && $2 == "=>" && $3 ~ /^\// { print $3; exit }
        $1 ~ ("/" s "$") { print $1; exit }')
    [ -n "$path" ] || { echo "deb-control: $soname not found by ldd" >&2; exit 1; }
    depends_on "$soname" "$path" >> "$found"
done
depends=$(sort -u "$found" | paste -sd, - | sed 's/,/, /g')

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)

cat <<CONTROL
Package: survey
Version: $version
Architecture: $arch
Maintainer: ${MAINTAINER:-survey maintainers <survey@localhost>}
Installed-Size: $size
Depends: $depends
Section: utils
Priority: optional
Description: full-screen field survey entry in the terminal
 survey is a terminal app (ncursesw) for entering field surveys: the list of
 surveys beside the record form, every change saved at once and atomically to
 XML property lists. The same binary has commands for scripts: docs, list, add,
 export and import (CSV, JSON, plist). Needs no Swift toolchain: the Swift
 runtime and Foundation are linked in statically.
CONTROL
