# syntax=docker/dockerfile:1
# The one public origin: the gateway (compiled to dist/index.js, run by plain node) plus the built shell and both
# remotes, served from dist folders.
#   docker build -f infra/docker/gateway.Dockerfile -t act/gateway .
# The static frontends alone (for a CDN or any static host) are the `frontends` stage:
#   docker build -f infra/docker/gateway.Dockerfile --target frontends -t act/frontends .   (files in /app/*/dist)
ARG NODE_IMAGE=node:20-slim

FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json ! -name .npmrc \
      ! -path ./infra/scripts/lockfile-stubs.mjs -delete

# Shell and remotes need the dev tools (rspack) to build; none of it reaches the final image.
FROM ${NODE_IMAGE} AS frontends
WORKDIR /app
COPY --from=manifests /app ./
RUN node infra/scripts/lockfile-stubs.mjs && npm ci
COPY . .
RUN npm run build -w mfe-email -w mfe-sms -w shell

# The gateway compiled to dist/index.js (esbuild stays in this stage).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=manifests /app ./
RUN node infra/scripts/lockfile-stubs.mjs && npm ci
COPY . .
RUN node infra/scripts/build-services.mjs gateway

FROM ${NODE_IMAGE}
WORKDIR /app
COPY --from=manifests /app ./
RUN node infra/scripts/lockfile-stubs.mjs \
 && npm ci --omit=dev --workspace=gateway --include-workspace-root=false \
 && npm cache clean --force
COPY --from=build /app/gateway/dist gateway/dist
COPY --from=frontends /app/shell/dist shell/dist
COPY --from=frontends /app/mfe-email/dist mfe-email/dist
COPY --from=frontends /app/mfe-sms/dist mfe-sms/dist
ENV NODE_ENV=production \
    SHELL_DIR=/app/shell/dist \
    MFE_EMAIL_DIR=/app/mfe-email/dist \
    MFE_SMS_DIR=/app/mfe-sms/dist
WORKDIR /app/gateway
USER node
# A larger young generation: see NODE_RUNTIME_OPTIONS in infra/scripts/stack.mjs.
ENV NODE_OPTIONS=--max-semi-space-size=32
CMD ["node", "--enable-source-maps", "dist/index.js"]
