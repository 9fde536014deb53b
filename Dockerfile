# syntax=docker/dockerfile:1
# Dependencies of both builds: dev dependencies included, native modules (better-sqlite3, DuckDB) built here.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# The server: `npm run build` compiles the TypeScript to dist/; the dev dependencies are pruned for the runtime.
FROM deps AS build
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY scripts ./scripts
COPY src ./src
# The public/embed pages (React + Vite): built into web/dist by the same script.
COPY web ./web
RUN npm run build && npm prune --omit=dev

# The web pages (public and embedded questions and dashboards): `npm run build:web` builds them with Vite into web/dist.
FROM deps AS web
COPY web ./web
RUN npm run build:web

# Runtime: production dependencies, the compiled server and the built pages only, as the unprivileged `node` user.
FROM node:20-bookworm-slim AS runtime
# glibc's malloc, as `npm start` runs: the server hands what glibc keeps freed back to the OS every 10 s (malloc_trim,
# MALLOC_TRIM_INTERVAL_SECONDS). `npm run bench` (rss suite, 2026-11-29): settled 131-141 MB after the workload series
# with the trim, 131-169 MB with jemalloc preloaded (which the image used before), 139-209 MB with neither.
ENV NODE_ENV=production DATA_DIR=/data PORT=3000 HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/scripts ./scripts
COPY --from=web /app/web/dist ./web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# 3000: the app (behind the load balancer). 9464: Prometheus metrics, served only when METRICS_PORT=9464 is set.
EXPOSE 3000 9464
# Metabase's health answer: 200 {"status":"ok"} while the app database answers, else 503.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node itself, not npm: it receives SIGTERM directly and drains in-flight requests before exiting. Its flags are
# `npm start`'s (none by default; see the README's note on memory for --max-semi-space-size).
CMD ["node", "dist/src/main.js"]
