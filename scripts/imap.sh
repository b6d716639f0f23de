#!/usr/bin/env bash
# imap.sh starts, idempotently, the IMAP server the mail tests read from: Debian's Dovecot
# (installed once), as a test instance of its own with its config, mail and logs under
# $SUPPORTDRAFT_DATA/dovecot (default .data/dovecot), listening on 127.0.0.1 on a free port,
# never on 143 and never as root. Any user name signs in with the test password, and
# each name has a mailbox of its own, so tests take a fresh name and never see each
# other's mail. Like services.sh it prints `export NAME=value` lines on stdout:
#   eval "$(scripts/imap.sh)"
# `scripts/imap.sh stop` stops the instance.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
data="${SUPPORTDRAFT_DATA:-$root/.data}"
d="$data/dovecot"
exec 3>&1 1>&2
log() { printf 'imap: %s\n' "$*" >&2; }
die() { printf 'imap: error: %s\n' "$*" >&2; exit 1; }

PASSWORD=supportdraft-test
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# The instance runs as the caller, or as Dovecot's own unprivileged user when the caller
# is root: a test server has no reason to hold root's rights.
if [ "$(id -u)" = 0 ]; then run_user=dovecot; else run_user=$(id -un); fi
as_run_user() { if [ "$(id -u)" = 0 ]; then runuser -u "$run_user" -- "$@"; else "$@"; fi; }

# The instance's files must be reachable by its user: a checkout under a private home
# (/root is 0700) is not, and then the instance lives under /var/tmp instead.
mkdir -p "$d"
if ! as_run_user test -x "$d"; then
  d=/var/tmp/supportdraft-dovecot-$(printf '%s' "$root" | sha1sum | cut -c1-12)
  mkdir -p "$d"
fi

answers() { (exec 9<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if [ "${1:-}" = stop ]; then
  [ -f "$d/dovecot.conf" ] && as_run_user dovecot -c "$d/dovecot.conf" stop 3>&- || true
  exit 0
fi

if ! command -v dovecot >/dev/null || [ ! -x /usr/lib/dovecot/imap ]; then
  log "installing Debian's dovecot-imapd (once)"
  as_root apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dovecot-imapd >&2
fi

port=$(cat "$d/port" 2>/dev/null || true)
if [ -n "$port" ] && [ -f "$d/run/master.pid" ] && kill -0 "$(cat "$d/run/master.pid")" 2>/dev/null && answers "$port"; then
  :
else
  port=""
  for p in $(seq 10143 10243); do
    if ! answers "$p"; then port=$p; break; fi
  done
  [ -n "$port" ] || die "no free port in 10143-10243 on 127.0.0.1"
  mkdir -p "$d/run" "$d/state" "$d/home"
  group=$(id -gn "$run_user")
  cat >"$d/dovecot.conf" <<CONF
# Written by scripts/imap.sh: supportdraft's IMAP test instance. Not for real mail.
instance_name = supportdraft-test
base_dir = $d/run
state_dir = $d/state
log_path = $d/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = $run_user
default_internal_group = $group
default_login_user = $run_user
first_valid_uid = $(id -u "$run_user")
passdb {
  driver = static
  args = password=$PASSWORD
}
userdb {
  driver = static
  args = uid=$run_user gid=$group home=$d/home/%u
}
mail_location = maildir:~/Maildir
mail_fsync = never
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = $port
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap {
  process_limit = 64
}
CONF
  [ "$(id -u)" = 0 ] && chown -R "$run_user:$group" "$d"
  echo "$port" >"$d/port"
  log "starting Dovecot on 127.0.0.1:$port (config $d/dovecot.conf)"
  as_run_user dovecot -c "$d/dovecot.conf" 3>&- || die "Dovecot did not start; see $d/dovecot.log"
  for _ in $(seq 1 50); do answers "$port" && break; sleep 0.1; done
  answers "$port" || die "Dovecot does not answer on 127.0.0.1:$port; see $d/dovecot.log"
fi
{
  echo "export TEST_IMAP_ADDR='127.0.0.1:$port'"
  echo "export TEST_IMAP_PASSWORD='$PASSWORD'"
} >&3
log "ready"
