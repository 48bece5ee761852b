#!/usr/bin/env bash
# Installs the Debian packages named on the command line that the machine lacks (idempotent), so the
# README's `npm ci && npm test` / `npm ci && npm start` work on a fresh machine:
#   chromium     the browser the UI tests and the extension-host runner drive (Playwright, /usr/bin/chromium)
#   libkrb5-dev  headers one of code-server's native modules builds against (first install only)
#   unzip        reads the VSIX's file list in scripts/package.mjs
# Not root, or no apt-get: says which command to run instead and fails.
set -euo pipefail
missing=()
for package in "$@"; do
  case "$package" in
    chromium) [ -x /usr/bin/chromium ] || missing+=(chromium) ;;
    unzip) command -v unzip >/dev/null 2>&1 || missing+=(unzip) ;;
    *) dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package") ;;
  esac
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "missing Debian packages: ${missing[*]}; install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "[packages] installing Debian packages: ${missing[*]}" >&2
apt-get update >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
