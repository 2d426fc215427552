# The bot, for `docker compose up` (PostgreSQL runs in its own container: see docker-compose.yml).
# Two stages: the build stage installs everything and compiles the TypeScript to dist/; the
# runtime stage holds only the production dependencies and the compiled JavaScript.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
# No embedded PostgreSQL in the image (the compose file gives DATABASE_URL); postinstall
# generates the Prisma client into src/generated, which the build compiles with the rest.
RUN npm ci --omit=optional --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY commands ./commands
RUN npm run build

FROM node:24-bookworm-slim AS runtime
WORKDIR /app
# Inside a container the health endpoints must listen beyond its own loopback to be published.
ENV NODE_ENV=production HTTP_HOST=0.0.0.0
COPY package.json package-lock.json ./
# Production dependencies only; the install scripts are skipped because the Prisma client was
# generated and compiled in the build stage. Optional packages are left out (the embedded
# PostgreSQL: the compose file gives DATABASE_URL), all but one: the native binary of the chart's
# canvas, of the version the lock file gives, for this image's platform.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
 && npm install --no-save --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
      "@napi-rs/canvas-linux-$(node -p process.arch)-gnu@$(node -p "require('@napi-rs/canvas/package.json').version")" \
 && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY prisma ./prisma
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:8080/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# What `npm start` runs after its build: the bot under its supervisor (src/supervisor.ts), which
# starts it again whenever it exits unasked. The 512 MB old-space cap keeps V8 from letting the heap
# grow to ~350 MB before its first full collection (the live heap with 5,000 guilds is ~100 MB);
# raise it for much larger shards.
CMD ["node", "dist/src/supervisor.js", "--max-old-space-size=512", "dist/src/main.js"]
