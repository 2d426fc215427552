# The bot, for `docker compose up` (PostgreSQL runs in its own container: see docker-compose.yml).
FROM node:20.20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund && npm cache clean --force
COPY tsconfig.json ./
COPY src ./src
COPY commands ./commands
# The bot runs as plain JavaScript on bare node, exactly as `npm start` builds and runs it. The
# 512 MB old-space cap keeps V8 from letting the heap grow to ~350 MB before its first full
# collection (the live heap with 5,000 guilds is ~100 MB); raise it for much larger shards.
RUN npm run build
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:8080/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "--max-old-space-size=512", "dist/src/main.js"]
