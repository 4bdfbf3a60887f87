# One image recipe for every service: docker build --build-arg SERVICE=catalog .
# The build stage compiles the service and its workspace dependencies; `pnpm
# deploy` then copies just that service with its production dependencies
# (workspace packages included) into /out, which is all the runtime gets.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0 \
    TURBO_TELEMETRY_DISABLED=1 \
    PNPM_STORE=/pnpm/store
RUN corepack enable pnpm
WORKDIR /repo

# Dependencies first: this layer only changes with the lockfile.
# (.npmr[c]: copied when present, no error when absent)
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmr[c] ./
# Patched dependencies (patches/README.md): the lockfile pins their hashes.
COPY patches ./patches
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store \
    pnpm fetch --frozen-lockfile --store-dir "$PNPM_STORE"

COPY . .
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store \
    pnpm install --frozen-lockfile --offline --store-dir "$PNPM_STORE"

ARG SERVICE
RUN test -n "$SERVICE" || { echo "build with --build-arg SERVICE=<service>" >&2; exit 1; }
RUN pnpm turbo run build --filter "@folio/${SERVICE}..."
# pnpm 9: `deploy` needs --filter and copies workspace dependencies in (pnpm 10 would need --legacy
# or inject-workspace-packages=true).
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store \
    pnpm --filter "@folio/${SERVICE}" deploy --prod --store-dir "$PNPM_STORE" /out \
 && rm -rf /out/src /out/test /out/tsconfig*.json /out/vitest.config.*

FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
# The local engines some services shell out to (reader: epubcheck, espeak-ng,
# lame, poppler-utils; integrations: apertium and its pairs, espeak-ng, lame,
# wordnet-base). docker-compose.yml passes each service's list; release builds
# for deploy/ must pass the same (`docker compose build` does).
ARG SYSTEM_PACKAGES=""
RUN if [ -n "$SYSTEM_PACKAGES" ]; then \
      apt-get update \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $SYSTEM_PACKAGES \
      && rm -rf /var/lib/apt/lists/*; \
    fi
# Mount point of the reader's content store (READER_STORAGE_DIR). The root
# filesystem is read-only at run time; a fresh named volume mounted here takes
# this directory's ownership, so `node` can write to it (Kubernetes: fsGroup).
RUN install -d -o node -g node /var/lib/folio/content
# Where catalog keeps its view's issue details (ISSUE_DETAILS_DIR in
# docker-compose.yml): files it unlinks at once, on a volume, not in tmpfs
# (memory).
RUN install -d -o node -g node /var/lib/folio/issue-details
ENV NODE_ENV=production
# Big malloc blocks always from mmap(), so that freed ones go back to the
# system (glibc otherwise raises the threshold after the first free; see ./dev).
ENV MALLOC_MMAP_THRESHOLD_=131072
LABEL org.opencontainers.image.title="folio-${SERVICE}"
WORKDIR /app
# Owned by root: `node` can read the code but not rewrite it.
COPY --from=build /out ./
USER node
# Tracing must be in place before the service's modules load (ESM): the register
# entry installs the instrumentations' loader hook and starts the OTel SDK, and
# does nothing at all unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/observability.md).
# Every service depends on @folio/telemetry, so /app/node_modules has it.
# --heap-growing-percent=50: full collections before the old generation grows
# past 1.5 times what the last one left live (V8: up to 4 times), so a burst's
# garbage does not take a pod over its memory (./dev, "V8_HEAP_FLAGS").
CMD ["node", "--heap-growing-percent=50", "--import", "@folio/telemetry/register", "dist/main.js"]
