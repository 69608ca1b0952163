#!/usr/bin/env bash
# `cmake --install` puts the programs, the .desktop file, the icon and the AppStream metainfo
# where desktops and software centres look (issue 25 §8), and the two files validate.
# usage: desktop_install.sh BUILD_DIR
set -euo pipefail
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/trainscope bin/trainscope-cli share/applications/trainscope.desktop \
         share/icons/hicolor/scalable/apps/trainscope.svg \
         share/metainfo/io.github.trainscope.TrainScope.metainfo.xml; do
  [ -e "$prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done
# The desktop entry starts the installed program by name and names the installed icon.
grep -qx 'Exec=trainscope %F' "$prefix/share/applications/trainscope.desktop"
grep -qx 'Icon=trainscope' "$prefix/share/applications/trainscope.desktop"
# The metainfo launches that desktop entry and passes AppStream's validator (offline).
grep -q '<launchable type="desktop-id">trainscope.desktop</launchable>' \
  "$prefix/share/metainfo/io.github.trainscope.TrainScope.metainfo.xml"
appstreamcli validate --no-net "$prefix/share/metainfo/io.github.trainscope.TrainScope.metainfo.xml"
echo "desktop files installed and valid"
