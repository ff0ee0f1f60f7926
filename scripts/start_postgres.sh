#!/usr/bin/env bash
# Start Debian's PostgreSQL cluster and create the role and database the tests use
# (postgres://classics:classics@127.0.0.1:5432/classics). Idempotent.
set -euo pipefail
version=$(ls /usr/lib/postgresql | sort -V | tail -1)
if ! pg_lsclusters -h | grep -q "^$version main"; then
  pg_createcluster "$version" main >/dev/null
fi
pg_ctlcluster "$version" main start 2>/dev/null || true
for _ in $(seq 1 30); do
  pg_isready -h 127.0.0.1 -p 5432 -q && break
  sleep 1
done
su postgres -c "psql -q -tc \"SELECT 1 FROM pg_roles WHERE rolname='classics'\" | grep -q 1 || psql -q -c \"CREATE ROLE classics LOGIN PASSWORD 'classics' CREATEDB\""
su postgres -c "psql -q -tc \"SELECT 1 FROM pg_database WHERE datname='classics'\" | grep -q 1 || createdb -O classics classics"
