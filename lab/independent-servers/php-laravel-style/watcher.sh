#!/usr/bin/env bash
# watcher.sh MAIN_PID DATA_DIR
# Records the children (built-in server workers) of MAIN_PID while it lives; when it is gone
# (SIGTERM, SIGKILL, crash), kills those workers so the port is freed, then removes DATA_DIR.
MAIN="$1"
DATA_DIR="$2"
declare -A KIDS=()
# Fields of /proc/PID/stat after the ")" that closes the command name: 1 = state, 20 = start time.
statf() {
  local s f
  s="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  s="${s##*) }"
  read -r -a f <<< "$s"
  echo "${f[$(( $2 - 1 ))]}"
}
starttime() { statf "$1" 20; }
main_alive() {
  local st; st="$(statf "$MAIN" 1)"
  [ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ] && [ "$(starttime "$MAIN")" = "$MAIN_START" ]
}
MAIN_START="$(starttime "$MAIN")"
while main_alive; do
  for k in $(ps -o pid= --ppid "$MAIN" 2>/dev/null); do
    [ "$k" = "$$" ] && continue
    [ -n "${KIDS[$k]:-}" ] || KIDS[$k]="$(starttime "$k")"
  done
  sleep 0.1
done
alive() { [ -d "/proc/$1" ] && [ "$(starttime "$1")" = "${KIDS[$1]}" ]; }
# Workers do not stop on SIGTERM promptly; they hold no state SQLite cannot recover, so KILL.
for k in "${!KIDS[@]}"; do alive "$k" && kill -KILL "$k" 2>/dev/null; done
case "$DATA_DIR" in
  */phplv-sandbox.*) rm -rf -- "$DATA_DIR" ;;
esac
