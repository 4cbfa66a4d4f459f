#!/usr/bin/env bash
# Runs every test of the project on a fresh machine: installs what the tests need and is
# missing (Debian packages: iptables, conntrack, nfacct, nftables, iproute2, curl, dig and
# tcpdump for the differential tests against the real kernel; chromium for the end-to-end
# tests), then the format/type/lint/unit checks, the kernel differential tests, the build, and
# the e2e suite.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v iptables-restore >/dev/null 2>&1 || need+=(iptables)
command -v conntrack >/dev/null 2>&1 || need+=(conntrack)
command -v nfacct >/dev/null 2>&1 || need+=(nfacct)
command -v nft >/dev/null 2>&1 || need+=(nftables)
command -v ipset >/dev/null 2>&1 || need+=(ipset)
command -v ip >/dev/null 2>&1 || need+=(iproute2)
# Real clients for the experiments' differential tests (tests/kernel/experiments-*.test.ts).
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v dig >/dev/null 2>&1 || need+=(bind9-dnsutils)
command -v tcpdump >/dev/null 2>&1 || need+=(tcpdump)
[ -x /usr/bin/chromium ] || need+=(chromium)
# CJK glyphs for the zh-CN screenshots the e2e tests keep.
[ -d /usr/share/fonts/opentype/noto ] || need+=(fonts-noto-cjk)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian packages: ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "Missing ${need[*]} and cannot apt-get install them (not root or no apt): the tests that need them will say they are skipped."
  fi
fi

npm run check
npm run build
npm run e2e
node scripts/test-summary.mjs
