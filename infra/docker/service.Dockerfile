# syntax=docker/dockerfile:1
# Image of one back-end service (svc-auth, svc-email or svc-sms): the service compiled to dist/index.js, run by plain
# node with its production dependencies only (no TypeScript tooling).
#   docker build -f infra/docker/service.Dockerfile --build-arg SERVICE=svc-email -t act/svc-email .
ARG NODE_IMAGE=node:20-slim

# Only what `npm ci` reads, so the dependency layer is rebuilt only when a manifest or the lockfile changes.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json ! -name .npmrc \
      ! -path ./infra/scripts/lockfile-stubs.mjs -delete

# The compiler (esbuild, a dev dependency) runs here and stays here: the service and our @act/* packages become
# one JavaScript file.
FROM ${NODE_IMAGE} AS build
ARG SERVICE
WORKDIR /app
COPY --from=manifests /app ./
RUN node infra/scripts/lockfile-stubs.mjs && npm ci
COPY . .
RUN node infra/scripts/build-services.mjs ${SERVICE}

FROM ${NODE_IMAGE}
ARG SERVICE
RUN test -n "$SERVICE" || (echo "build with --build-arg SERVICE=svc-auth|svc-email|svc-sms" && exit 1)
WORKDIR /app
COPY --from=manifests /app ./
# The service's own production dependencies only (workspace packages are linked, not copied: they are compiled in).
RUN node infra/scripts/lockfile-stubs.mjs \
 && npm ci --omit=dev --workspace=${SERVICE} --include-workspace-root=false \
 && npm cache clean --force
COPY --from=build /app/${SERVICE}/dist ${SERVICE}/dist
WORKDIR /app/${SERVICE}
ENV NODE_ENV=production
USER node
# A larger young generation: see NODE_RUNTIME_OPTIONS in infra/scripts/stack.mjs.
ENV NODE_OPTIONS=--max-semi-space-size=32
CMD ["node", "--enable-source-maps", "dist/index.js"]
