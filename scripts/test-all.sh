#!/usr/bin/env bash
# Runs every test of the project on a fresh machine: installs what the tests need and is
# missing (Debian packages: iptables, conntrack, nfacct, nftables, iproute2, curl, dig, nc and
# tcpdump for the differential tests against the real kernel; chromium for the end-to-end
# tests; firefox-esr, webkit2gtk-driver and xvfb for the smoke test in Firefox and WebKit), then
# the format/type/lint/unit checks, the kernel differential tests, the build, the e2e suite and
# the cross-browser smoke test.
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
command -v nc >/dev/null 2>&1 || need+=(netcat-openbsd)
command -v ping >/dev/null 2>&1 || need+=(iputils-ping)
command -v tcpdump >/dev/null 2>&1 || need+=(tcpdump)
[ -x /usr/bin/chromium ] || need+=(chromium)
# The smoke test in the other engines (e2e/cross-browser): Gecko and WebKit (Safari's engine).
command -v firefox-esr >/dev/null 2>&1 || command -v firefox >/dev/null 2>&1 || need+=(firefox-esr)
[ -x /usr/bin/WebKitWebDriver ] || need+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
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
npm run e2e:browsers
node scripts/test-summary.mjs
