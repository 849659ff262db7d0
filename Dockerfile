# The standalone affiliate-kit server. The build stage packs the package exactly as npm would
# publish it; the runtime stage installs that tarball with pg, as a user of the package would.
# Data: embedded PGlite in the volume /data, or PostgreSQL with DATABASE_URL (see compose.yaml).
# Settings: a config file in the volume /config, passed with --config (see compose.yaml).
# Node 24 LTS: the CI runs the tests on it too (.ci/run).
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm pack --pack-destination /tmp \
 && mv /tmp/affiliate-kit-*.tgz /tmp/affiliate-kit.tgz \
 && node -p "require('./package.json').peerDependencies.pg" > /tmp/pg-version

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8787
WORKDIR /app
COPY --from=build /tmp/affiliate-kit.tgz /tmp/pg-version /tmp/
RUN npm init -y > /dev/null \
 && npm install --no-audit --no-fund /tmp/affiliate-kit.tgz "pg@$(cat /tmp/pg-version)" \
 && npm cache clean --force \
 && rm /tmp/affiliate-kit.tgz /tmp/pg-version \
 && mkdir /data /config && chown node:node /data
USER node
WORKDIR /data
VOLUME /data /config
EXPOSE 8787
# Liveness from /healthz, with Node itself (the slim image has no curl).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The server handles SIGTERM itself (drains, then exits 0), also as pid 1.
ENTRYPOINT ["node", "/app/node_modules/affiliate-kit/dist/cli/main.js"]
CMD ["serve"]
