// `npm run build` (and `npm start`, before it runs): the bot's TypeScript (and the campaign page's
// TSX, rendered to HTML strings by preact) as plain JavaScript in
// dist/, one file per source file, so production runs on bare `node` — without the TypeScript
// loader tsx keeps in memory (about 35 MB of RSS) — and starts without transpiling anything.
// Tests and development run the sources through tsx as before. `node scripts/build.mjs <dir>` builds
// into <dir> instead (a test that builds an image's contents, next to another that builds dist/).
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath, e.name));
}

const outdir = process.argv[2] ?? "dist";
rmSync(outdir, { recursive: true, force: true });
const entryPoints = [...sources("src"), ...sources("commands")];
await build({
  entryPoints,
  outdir,
  outbase: ".",
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  logLevel: "warning",
});
