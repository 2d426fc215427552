/**
 * Summarises a V8 .cpuprofile (from `npm run bench -- --profile`): self time by function and by
 * package/file, so the hot spots of the bot under load are plain to read.
 *   npx tsx bench/profile-summary.ts bench/profiles/<file>.cpuprofile [top]
 */
import { readFileSync } from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-summary <file.cpuprofile> [top]");
const profile = JSON.parse(readFileSync(file, "utf8")) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};
const top = Number(topArg ?? 40);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
for (const [i, id] of profile.samples.entries())
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (url: string) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1] as string;
  if (url.startsWith("node:")) return url;
  const local = /\/(src|commands|bench)\/(.*)$/.exec(url);
  return local ? `${local[1]}/${local[2]}` : url || "(native)";
};
const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id) as Node;
  const place = where(n.callFrame.url);
  const fn = `${n.callFrame.functionName || "(anonymous)"} ${place}:${n.callFrame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  byPlace.set(place, (byPlace.get(place) ?? 0) + us);
}
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`,
    );
  }
};
console.log(
  `profile: ${(total / 1e6).toFixed(1)} s of samples over ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s`,
);
print("by package / file (self time)", byPlace);
print("by function (self time)", byFunction);
