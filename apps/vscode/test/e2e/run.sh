#!/usr/bin/env bash
# The extension end to end in a real VS Code (code-server 4.100.3): builds the server and the
# extension, starts a Kiln server on a temp data dir, seeds it through the v3 API and git, starts
# code-server on a clone of the project, and drives the extension from chromium like a user (sign
# in, mark a todo done, open a diff, follow a pipeline built by a real `kiln runner` from running to
# passed, accept the merge request, sign out). Screenshots go to SHOTS (default
# apps/vscode/test/e2e/screenshots). Needs CS_HOME: code-server 4.100.3 and playwright-core
# installed there by install-code-server.sh beside this file (default /work/.cache/code-server).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
APP="$(cd "$HERE/../.." && pwd)"
REPO="$(cd "$APP/../.." && pwd)"
CS_HOME="${CS_HOME:-/work/.cache/code-server}"
SHOTS="$(realpath -m "${SHOTS:-$HERE/screenshots}")"
[ -x "$CS_HOME/node_modules/.bin/code-server" ] || { echo "code-server not found in CS_HOME=$CS_HOME" >&2; exit 2; }

(cd "$REPO/apps/server" && node build.mjs)
(cd "$APP" && node build.mjs)

RUN="$(mktemp -d "${TMPDIR:-/tmp}/kiln-vscode-e2e.XXXX")"
mkdir -p "$RUN/data" "$RUN/ws" "$RUN/builds" "$RUN/user-data/User" "$RUN/extensions" "$RUN/tmp" "$SHOTS"
rm -f "$SHOTS"/*.png # a run's screenshots only, none left from an earlier one
KILN_PID=""; CS_PID=""; RUNNER_PID=""
cleanup() {
  [ -n "$RUNNER_PID" ] && kill "$RUNNER_PID" 2>/dev/null && wait "$RUNNER_PID" 2>/dev/null || true
  [ -n "$CS_PID" ] && kill "$CS_PID" 2>/dev/null && wait "$CS_PID" 2>/dev/null || true
  [ -n "$KILN_PID" ] && kill "$KILN_PID" 2>/dev/null && wait "$KILN_PID" 2>/dev/null || true
  [ -n "${KEEP_RUN:-}" ] && echo "run kept in $RUN" || rm -rf "$RUN"
}
trap cleanup EXIT
free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# Kiln
KILN_PORT="$(free_port)"; KILN="http://127.0.0.1:$KILN_PORT"
export KILN_DATA_DIR="$RUN/data" KILN_BASE_URL="$KILN" KILN_ROOT_PASSWORD=password123
PORT="$KILN_PORT" node "$REPO/apps/server/dist/main.js" serve > "$RUN/kiln.log" 2>&1 &
KILN_PID=$!
for _ in $(seq 1 150); do curl -fsS -o /dev/null "$KILN/api/v3/projects/visible" 2>/dev/null && break; [ "$(curl -s -o /dev/null -w '%{http_code}' "$KILN/api/v3/user")" = 401 ] && break; sleep 0.2; done
node "$HERE/seed.mjs" "$KILN" "$RUN/ws" > "$RUN/seed.json"
PAT="$(node "$REPO/apps/server/dist/main.js" token create --user root --name vscode-e2e | tail -1 | tr -d '[:space:]')"
# The builds' gate: the test's job runs until this file exists (the driver makes it).
node -e 'const fs=require("fs");const [f,pat,release,kilnLog]=process.argv.slice(1);const c=JSON.parse(fs.readFileSync(f));Object.assign(c,{pat,release,kilnLog});fs.writeFileSync(f,JSON.stringify(c))' "$RUN/seed.json" "$PAT" "$RUN/release" "$RUN/kiln.log"

# A real runner, registered with the instance's token, building what the driver pushes.
REGISTRATION="$(node "$REPO/apps/server/dist/main.js" runner token | tail -1 | tr -d '[:space:]')"
node "$REPO/apps/server/dist/main.js" runner --url "$KILN" --registration-token "$REGISTRATION" \
  --builds-dir "$RUN/builds" > "$RUN/runner.log" 2>&1 &
RUNNER_PID=$!

# code-server, kept out of $HOME
export XDG_CONFIG_HOME="$RUN/xdg-config" XDG_DATA_HOME="$RUN/xdg-data" XDG_CACHE_HOME="$RUN/xdg-cache" TMPDIR="$RUN/tmp"
# Polling is hourly, so that what shows comes by the stream; measuring (E2E_MEASURE=1), the views
# poll as they do by default (60 s).
POLL_SECONDS=3600; [ -z "${E2E_MEASURE:-}" ] || POLL_SECONDS=60
cat > "$RUN/user-data/User/settings.json" <<JSON
{ "workbench.startupEditor": "none", "telemetry.telemetryLevel": "off", "update.mode": "none",
  "extensions.autoCheckUpdates": false, "extensions.autoUpdate": false, "workbench.tips.enabled": false,
  "security.workspace.trust.enabled": false, "git.openRepositoryInParentFolders": "always",
  "kiln.pollSeconds": $POLL_SECONDS }
JSON
CS_PORT="$(free_port)"
printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\ndisable-telemetry: true\ndisable-update-check: true\n' "$CS_PORT" > "$RUN/config.yaml"
export EXTENSIONS_GALLERY='{"serviceUrl":"http://127.0.0.1:9/api","itemUrl":"http://127.0.0.1:9/item","resourceUrlTemplate":"http://127.0.0.1:9/r/{publisher}/{name}/{version}/{path}"}'
"$CS_HOME/node_modules/.bin/code-server" --config "$RUN/config.yaml" --user-data-dir "$RUN/user-data" \
  --extensions-dir "$RUN/extensions" --disable-workspace-trust --disable-getting-started-override "$RUN/ws" > "$RUN/code-server.log" 2>&1 &
CS_PID=$!
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$CS_PORT/healthz" >/dev/null 2>&1 && break; sleep 0.2; done

CS_HOME="$CS_HOME" node "$HERE/driver.cjs" "http://127.0.0.1:$CS_PORT" "$RUN/ws" "$APP/dist/extension" "$RUN/seed.json" "$SHOTS"
