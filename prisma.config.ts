import { defineConfig } from "prisma/config";

// Used by the Prisma CLI (generate). Migrations are applied by src/store/migrate.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
