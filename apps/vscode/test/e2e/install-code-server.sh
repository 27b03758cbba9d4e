#!/usr/bin/env bash
# Installs code-server (VS Code 1.100.3 server + web workbench) from the npm registry on Node 20,
# without any download outside the npm registry / Debian apt. (The team's recipe, from
# shared/tools/vscode-e2e; CI runs it before apps/vscode/test/e2e/run.sh.)
set -euo pipefail
CS_VERSION="${CS_VERSION:-4.100.3}"      # newest code-server whose engines.node is "20"
PW_VERSION="${PW_VERSION:-1.65.1}"       # playwright-core matching Debian chromium 156
DEST="${1:?usage: install-code-server.sh DEST_DIR}"
t0=$(date +%s)

if ! command -v chromium >/dev/null || ! command -v rg >/dev/null || [ ! -e /usr/include/gssapi/gssapi.h ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium ripgrep libkrb5-dev build-essential pkg-config python3 >/dev/null
fi

mkdir -p "$DEST" && cd "$DEST"
[ -f package.json ] || npm init -y >/dev/null
# 1) code-server itself, WITHOUT its postinstall (the postinstall refuses to run as root without
#    npm_config_unsafe_perm, and its nested install fails on @vscode/ripgrep's GitHub download).
npm i --ignore-scripts "code-server@${CS_VERSION}" "playwright-core@${PW_VERSION}"

# 2) replay code-server's postinstall.sh by hand
cd node_modules/code-server/lib/vscode
npm install --omit=dev --ignore-scripts
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg      # ripgrep's postinstall then sees bin/ and skips its download
npm_config_yes=true npm rebuild --foreground-scripts >/dev/null  # native modules; node-pty runs `npx node-gyp` -> needs yes
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
(cd extensions && npm install --omit=dev >/dev/null)
cd "$DEST"
# 3) argon2 (only used for --auth password); its prebuilt download fails and it compiles from source
npm_config_yes=true npm rebuild argon2 >/dev/null
echo "code-server ${CS_VERSION} ready in $DEST after $(( $(date +%s) - t0 ))s; $(du -sh node_modules | cut -f1) on disk"
