#!/usr/bin/env bash
# Installs the Debian packages named on the command line that the machine lacks (idempotent), so the
# README's `npm ci && npm test` / `npm ci && npm start` work on a fresh machine:
#   chromium     the browser the UI tests and the extension-host runner drive (Playwright, /usr/bin/chromium)
#   unzip        reads the VSIX's file list in scripts/package.mjs
#   openssl      makes the test certificates
#   libkrb5-dev  headers for code-server's kerberos module, asked for only when its install failed without them
#   neovim       a plain LSP client for the language server's test (Debian 12: 0.7.2; its built-in client)
# Only what is missing, and nothing else changed: no recommended packages, no upgrade of a package already
# installed (a package whose install would upgrade others is not installed; the command to do it is named),
# unless APIWB_APT_ALLOW_UPGRADES=1: then the upgrades its dependencies require are made, and named (a -dev
# package needs its runtime libraries at its own version: libkrb5-dev after a security update of krb5).
# Another apt or dpkg holding the lock is waited for, up to APIWB_APT_LOCK_TIMEOUT seconds (default 300).
# Not root, or no apt-get: says which command to run instead and fails.
set -euo pipefail
missing=()
for package in "$@"; do
  case "$package" in
    chromium) [ -x /usr/bin/chromium ] || missing+=(chromium) ;;
    unzip) command -v unzip >/dev/null 2>&1 || missing+=(unzip) ;;
    openssl) command -v openssl >/dev/null 2>&1 || missing+=(openssl) ;;
    neovim) command -v nvim >/dev/null 2>&1 || missing+=(neovim) ;;
    *) dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package") ;;
  esac
done
[ ${#missing[@]} -eq 0 ] && exit 0
install_command="apt-get install -y --no-install-recommends --no-upgrade ${missing[*]}"
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "missing Debian packages: ${missing[*]}; install them with: sudo $install_command" >&2
  exit 1
fi
lock_timeout="${APIWB_APT_LOCK_TIMEOUT:-300}"
# apt waits this long for the dpkg frontend lock (apt >= 1.9.11) instead of failing at once.
apt=(apt-get -o "DPkg::Lock::Timeout=$lock_timeout" -o "Acquire::Retries=2")
export DEBIAN_FRONTEND=noninteractive
echo "[packages] installing Debian packages: ${missing[*]}$([ "${APIWB_APT_ALLOW_UPGRADES:-0}" = 1 ] || echo ' (nothing else is upgraded)')" >&2
# The package lists: another apt-get update holds their lock; waited for the same way.
"${apt[@]}" update >&2
# What the install would do, first: a line "Inst NAME [OLD VERSION] (...)" is an upgrade of an installed package.
plan="$("${apt[@]}" -s install --no-install-recommends --no-upgrade "${missing[@]}")"
upgrades="$(printf '%s\n' "$plan" | awk '/^Inst [^ ]+ \[/ { print $2 }' | tr '\n' ' ')"
if [ -n "$upgrades" ] && [ "${APIWB_APT_ALLOW_UPGRADES:-0}" != 1 ]; then
  echo "[packages] not installed: ${missing[*]} would upgrade packages already installed (${upgrades% }); to accept that, run: $install_command" >&2
  exit 1
fi
[ -n "$upgrades" ] && echo "[packages] ${missing[*]} needs these installed packages at newer versions, upgraded with it: ${upgrades% }" >&2
"${apt[@]}" install -y --no-install-recommends --no-upgrade "${missing[@]}" >&2
