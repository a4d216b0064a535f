#!/bin/sh
# Installs the build and test dependencies of ptosim on Debian (SimGrid, cJSON, Check, pkg-config).
set -eu
missing=""
for pc in simgrid libcjson check; do
    if ! pkg-config --exists "$pc" 2>/dev/null; then missing="$missing $pc"; fi
done
if command -v pkg-config >/dev/null 2>&1 && [ -z "$missing" ]; then
    exit 0
fi
echo "install-deps: installing libsimgrid-dev libcjson-dev check pkg-config (missing:${missing:- pkg-config})" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends libsimgrid-dev libcjson-dev check pkg-config >/dev/null
