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
ENV NODE_ENV=production
LABEL org.opencontainers.image.title="folio-${SERVICE}"
WORKDIR /app
# Owned by root: `node` can read the code but not rewrite it.
COPY --from=build /out ./
USER node
CMD ["node", "dist/main.js"]
