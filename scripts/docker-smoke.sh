#!/usr/bin/env bash
# Builds the image and starts it, where a Docker daemon answers: the health check must turn healthy and the
# server must run as a non-root user. Without a daemon (or without the base image) it says so and skips:
# test/process/dockerfile.spec.ts checks the Dockerfile's stages, user and health check everywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v docker >/dev/null 2>&1 || ! docker info >/dev/null 2>&1; then
  echo "docker-smoke: skipped, no Docker daemon here"
  exit 0
fi
base=$(sed -n 's/^FROM \([^ ]*\) AS deps$/\1/p' Dockerfile)
if ! docker image inspect "$base" >/dev/null 2>&1 && ! docker pull "$base" >/dev/null 2>&1; then
  echo "docker-smoke: skipped, the base image $base cannot be pulled here"
  exit 0
fi
tag="analytics-server:smoke-$$"
docker build -t "$tag" .
cid=$(docker run -d -p 127.0.0.1::3000 -e LOAD_SAMPLE_DATABASE=false "$tag")
cleanup() {
  docker rm -f "$cid" >/dev/null 2>&1 || true
  docker rmi "$tag" >/dev/null 2>&1 || true
}
trap cleanup EXIT
port=$(docker port "$cid" 3000/tcp | head -1 | sed 's/.*://')
# Docker's own HEALTHCHECK (GET /api/health every 30 s): healthy within its start period and a few intervals.
for _ in $(seq 1 60); do
  health=$(docker inspect --format '{{.State.Health.Status}}' "$cid")
  [ "$health" = healthy ] && break
  [ "$(docker inspect --format '{{.State.Running}}' "$cid")" = true ] || { docker logs "$cid"; echo "docker-smoke: the container exited"; exit 1; }
  sleep 3
done
if [ "$health" != healthy ]; then
  docker logs "$cid" | tail -50
  echo "docker-smoke: the container is $health, not healthy"
  exit 1
fi
node -e "fetch('http://127.0.0.1:$port/api/health').then(async r=>{const b=await r.text();console.log('GET /api/health',r.status,b);process.exit(r.ok?0:1)},e=>{console.error(e);process.exit(1)})"
uid=$(docker exec "$cid" id -u)
if [ "$uid" = 0 ]; then
  echo "docker-smoke: the server runs as root"
  exit 1
fi
echo "docker-smoke: image built, container healthy, server running as uid $uid"
