#!/usr/bin/env bash
# Machine setup for the e2e tests: make sure Debian's Chromium is at /usr/bin/chromium
# (driven by playwright-core; `npx playwright install` is not used). Idempotent.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
	echo "setup: chromium present ($("$CHROMIUM" --version 2>/dev/null || echo "version unknown"))"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "setup: $CHROMIUM is missing and this script is not running as root." >&2
	echo "setup: install it with:  sudo apt-get update && sudo apt-get install -y chromium" >&2
	exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
	echo "setup: $CHROMIUM is missing and apt-get is not available (Debian/Ubuntu expected)." >&2
	exit 1
fi

echo "setup: installing Debian's chromium..."
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y chromium

if [ ! -x "$CHROMIUM" ]; then
	echo "setup: apt-get finished but $CHROMIUM is still missing." >&2
	exit 1
fi
echo "setup: chromium installed ($("$CHROMIUM" --version 2>/dev/null || echo "version unknown"))"
