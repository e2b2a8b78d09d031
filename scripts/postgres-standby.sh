#!/usr/bin/env bash
# A PostgreSQL hot standby on this machine, made from a running primary with pg_basebackup, and what
# an operator does with it: promote it when the primary is lost, stop it. Also starts a scratch
# primary that allows replication from loopback, for tests and for trying this out.
#
#   scripts/postgres-standby.sh primary DATA_DIR PORT
#       initdb DATA_DIR (which must not exist or be empty) and start it on 127.0.0.1:PORT, with
#       wal_level=replica and replication connections from 127.0.0.1 trusted.
#   scripts/postgres-standby.sh standby PRIMARY_HOST PRIMARY_PORT DATA_DIR PORT [NAME]
#       copy the primary into DATA_DIR with pg_basebackup (streaming the WAL it needs) and start it as
#       a hot standby on 127.0.0.1:PORT that follows the primary; NAME (default "standby") is its
#       application_name on the primary, the name synchronous_standby_names refers to.
#   scripts/postgres-standby.sh promote DATA_DIR
#       make the standby a primary (pg_ctl promote) and wait until it takes writes.
#   scripts/postgres-standby.sh stop DATA_DIR [fast|immediate]
#       stop the server of DATA_DIR (immediate: as if its machine died).
#
# The primary must allow replication: wal_level=replica (or logical), max_wal_senders > 0, and a
# pg_hba.conf line such as `host replication postgres 127.0.0.1/32 trust` (a Debian cluster has none
# by default). Run as root, the servers run as the postgres user (initdb refuses root); otherwise as
# the current user. PG_BIN says where PostgreSQL's programs are (default: version 15's on Debian).
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
USER_NAME=${PGUSER:-postgres}

usage() {
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# Runs a command as the owner of the data directories: postgres when this script runs as root.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Creates an empty data directory the servers' user owns.
make_data_dir() {
  local dir=$1
  if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
    echo "postgres-standby: $dir is not empty" >&2
    exit 1
  fi
  mkdir -p "$dir"
  chmod 700 "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
}

start_server() {
  local dir=$1
  as_owner "$PG_BIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start >/dev/null ||
    { tail -n 20 "$dir/server.log" >&2; exit 1; }
}

case "${1:-}" in
  primary)
    [ $# -eq 3 ] || usage
    dir=$2 port=$3
    make_data_dir "$dir"
    as_owner "$PG_BIN/initdb" -D "$dir" -U "$USER_NAME" --auth=trust --no-sync >/dev/null
    # initdb's pg_hba.conf already trusts replication from 127.0.0.1 and ::1.
    cat >>"$dir/postgresql.auto.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = ''
wal_level = replica
max_wal_senders = 10
max_connections = 200
CONF
    start_server "$dir"
    ;;
  standby)
    [ $# -ge 5 ] && [ $# -le 6 ] || usage
    primary_host=$2 primary_port=$3 dir=$4 port=$5 name=${6:-standby}
    make_data_dir "$dir"
    # -R writes standby.signal and primary_conninfo; -X stream copies the WAL made meanwhile.
    as_owner "$PG_BIN/pg_basebackup" -h "$primary_host" -p "$primary_port" -U "$USER_NAME" -D "$dir" \
      -X stream -R -c fast --no-sync
    cat >>"$dir/postgresql.auto.conf" <<CONF
primary_conninfo = 'host=$primary_host port=$primary_port user=$USER_NAME application_name=$name'
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = ''
hot_standby = on
# Queries on the standby hold back the primary's vacuum instead of being cancelled by it.
hot_standby_feedback = on
CONF
    rm -f "$dir/postmaster.pid" "$dir/server.log"
    start_server "$dir"
    ;;
  promote)
    [ $# -eq 2 ] || usage
    as_owner "$PG_BIN/pg_ctl" -D "$2" -w -t 60 promote >/dev/null
    ;;
  stop)
    [ $# -ge 2 ] && [ $# -le 3 ] || usage
    as_owner "$PG_BIN/pg_ctl" -D "$2" -m "${3:-fast}" -w -t 60 stop >/dev/null
    ;;
  *)
    usage
    ;;
esac
