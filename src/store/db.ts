import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma, PrismaClient } from "../generated/prisma/client.js";

export { Prisma, PrismaClient };
export type Db = PrismaClient;
/** A transaction client: what use cases get inside `inTransaction`. */
export type Tx = Prisma.TransactionClient;

export function createDb(databaseUrl: string, options: { poolSize?: number } = {}): Db {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    // Fail fast when PostgreSQL is down, so users hear "temporarily unavailable" within Discord's 3 s.
    connectionTimeoutMillis: 1500,
    idleTimeoutMillis: 30_000,
  });
  return new PrismaClient({ adapter });
}
