#!/usr/bin/env bash
# Machine setup for the e2e tests, idempotent:
# - Debian's Chromium at /usr/bin/chromium (driven by playwright-core; `npx playwright install`
#   is not used);
# - pnpm, pinned, on the PATH: e2e/existing-app.test.ts has create-auth install an app with it.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
# pnpm 12 is a native executable (no Node requirement); its npm package puts the binary in place
# in its postinstall script, which npm 12 runs for a global install only with --allow-scripts.
PNPM_VERSION=12.21.0

install_chromium() {
	if [ -x "$CHROMIUM" ]; then
		echo "setup: chromium present ($("$CHROMIUM" --version 2>/dev/null || echo "version unknown"))"
		return 0
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
}

install_pnpm() {
	local current
	current="$(pnpm --version 2>/dev/null || true)"
	if [ "$current" = "$PNPM_VERSION" ]; then
		echo "setup: pnpm $PNPM_VERSION present"
		return 0
	fi
	echo "setup: installing pnpm $PNPM_VERSION (found: ${current:-none})..."
	npm install --global --no-audit --no-fund --allow-scripts=pnpm "pnpm@$PNPM_VERSION"
	hash -r
	current="$(pnpm --version 2>/dev/null || true)"
	if [ "$current" != "$PNPM_VERSION" ]; then
		echo "setup: pnpm $PNPM_VERSION was installed but \`pnpm --version\` prints '${current:-nothing}'" \
			"(is $(npm prefix --global 2>/dev/null)/bin on the PATH?)." >&2
		exit 1
	fi
	echo "setup: pnpm $PNPM_VERSION installed"
}

install_chromium
install_pnpm
