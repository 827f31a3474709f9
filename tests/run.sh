#!/usr/bin/env bash
# Every test: unit, golden, property, pipeline, and the real-server tier against Dovecot and
# Postfix on loopback (installed from Debian packages and started by tests/e2e/servers.sh,
# which needs root: run as root or with sudo). Without root or sudo the real-server tests
# say SKIPPED and the rest still runs.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo)
else
    sudo=none
fi
if [ "${sudo[*]:-}" != none ]; then
    "${sudo[@]}" tests/e2e/servers.sh setup
    # shellcheck disable=SC2046
    export $(tests/e2e/servers.sh env)
elif [ -n "${CI:-}" ] && [ "${CI}" != 0 ] && [ "${CI}" != false ]; then
    echo "tests/run.sh: CI is set but there is no root and no sudo to start the mail servers" >&2
    exit 1
else
    echo "tests/run.sh: no root and no sudo: the real-server tests will be skipped" >&2
fi
# The disk is shared with other work: when it runs full, rustc fails far from the cause ("IO
# failure on output stream"), as CI did once. Say how much room the build has before it starts.
avail_kb=$(df -Pk . | awk 'NR==2 {print $4}')
echo "tests/run.sh: $((avail_kb / 1024)) MiB free on the build disk" >&2
# A CI build starts clean and is thrown away: incremental-compilation state would only take disk.
if [ -n "${CI:-}" ] && [ "${CI}" != 0 ] && [ "${CI}" != false ]; then
    export CARGO_INCREMENTAL=0
fi
exec cargo test --locked "$@"
