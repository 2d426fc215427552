// `npm run backup` and `npm run restore`: src/backup-cli.ts, built from this checkout into
// dist-tools/ — never into dist/, which a running bot may be loading files from — and run. Where
// the checkout cannot be written (installed read-only for the bot's user), the bot's own build in
// dist/ is used instead.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.join(import.meta.dirname, "..");
let writable = true;
try {
  accessSync(root, constants.W_OK);
} catch {
  writable = false;
}
let entry = path.join(root, "dist-tools", "src", "backup-cli.js");
if (writable) {
  const built = spawnSync(process.execPath, [path.join(root, "scripts", "build.mjs"), "dist-tools"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
} else {
  entry = path.join(root, "dist", "src", "backup-cli.js");
  if (!existsSync(entry)) {
    process.stderr.write(
      `${root} cannot be written and holds no build: run npm run build there as its owner.\n`,
    );
    process.exit(2);
  }
}
await import(pathToFileURL(entry).href);
