/**
 * The page's pictures, drawn on the server as SVG (they show without JavaScript): the Mountain
 * Witch trust matrix, the Beast Hunters reserve over the adventure, the dice against fair dice.
 * Colours come from the stylesheet's classes, so they follow light and dark.
 */
import type { DieSizeStats } from "../../rules/dice-stats.js";
import type { LedgerRow, TrustPicture } from "../page-data.js";

const short = (name: string, max = 12) => (name.length > max ? `${name.slice(0, max - 1)}…` : name);

export function TrustMatrix({
  picture,
  labels,
}: {
  picture: TrustPicture;
  labels: { giver: string; holder: string; change: (before: number, after: number) => string };
}) {
  const people = picture.characters;
  const cell = 56;
  const left = 104;
  const top = 72;
  const size = { w: left + cell * people.length + 8, h: top + cell * people.length + 8 };
  const max = Math.max(3, ...picture.cells.map((c) => c.value));
  return (
    <svg
      class="chart trust-matrix"
      viewBox={`0 0 ${size.w} ${size.h}`}
      width={size.w}
      height={size.h}
      role="img"
      aria-label={`${labels.giver} → ${labels.holder}`}
    >
      <text class="axis" x={4} y={12}>
        {labels.giver} ↓ · {labels.holder} →
      </text>
      {people.map((p, i) => (
        <g>
          <text class="label" x={left - 6} y={top + cell * i + cell / 2 + 4} text-anchor="end">
            <title>{p.name}</title>
            {short(p.name)}
          </text>
          <text
            class="label"
            x={left + cell * i + cell / 2}
            y={top - 10}
            transform={`rotate(-40 ${left + cell * i + cell / 2} ${top - 10})`}
          >
            <title>{p.name}</title>
            {short(p.name)}
          </text>
        </g>
      ))}
      {people.map((giver, gi) =>
        people.map((holder, hi) => {
          const x = left + cell * hi;
          const y = top + cell * gi;
          if (giver.id === holder.id)
            return <rect class="cell self" x={x + 2} y={y + 2} width={cell - 4} height={cell - 4} rx={6} />;
          const link = picture.cells.find((c) => c.giverId === giver.id && c.holderId === holder.id);
          const value = link?.value ?? 0;
          const changed = link && link.before !== null && link.before !== link.value;
          return (
            <g
              class={changed ? "trust changed" : "trust"}
              data-giver={giver.name}
              data-holder={holder.name}
              data-value={value}
              data-points={link?.points ?? 0}
            >
              <title>
                {giver.name} → {holder.name}: {value}
                {changed ? ` (${labels.change(link.before!, link.value)})` : ""}
              </title>
              <rect class="cell" x={x + 2} y={y + 2} width={cell - 4} height={cell - 4} rx={6} />
              <circle
                class="dot"
                cx={x + cell / 2}
                cy={y + cell / 2 - 4}
                r={value === 0 ? 0 : 6 + (14 * value) / max}
              />
              <text class="value" x={x + cell / 2} y={y + cell / 2} text-anchor="middle">
                {value}
              </text>
              <text class="points" x={x + cell / 2} y={y + cell - 8} text-anchor="middle">
                {changed ? `${link.before}→${link.value}` : `${link?.points ?? 0}/${value}`}
              </text>
            </g>
          );
        }),
      )}
    </svg>
  );
}

/** The reserve left after each change, under the adventure's total, with the ceiling marked. */
export function LedgerChart({
  rows,
  labels,
}: {
  rows: LedgerRow[];
  labels: { left: string; ceiling: string };
}) {
  if (rows.length === 0) return null;
  const w = 640;
  const h = 220;
  const pad = { l: 36, r: 12, t: 14, b: 24 };
  const top = Math.max(1, ...rows.map((r) => Math.max(r.total, r.after, r.before ?? 0)));
  const x = (i: number) => pad.l + ((w - pad.l - pad.r) * i) / Math.max(1, rows.length - 1);
  const y = (v: number) => pad.t + (h - pad.t - pad.b) * (1 - v / top);
  const points = rows.map((r, i) => `${x(i).toFixed(1)},${y(r.after).toFixed(1)}`).join(" ");
  const ceiling = rows[rows.length - 1]!.ceiling;
  const ticks = [0, Math.round(top / 2), top];
  return (
    <svg class="chart ledger-chart" viewBox={`0 0 ${w} ${h}`} role="img" aria-label={labels.left}>
      {ticks.map((v) => (
        <g>
          <line class="grid" x1={pad.l} x2={w - pad.r} y1={y(v)} y2={y(v)} />
          <text class="axis" x={pad.l - 6} y={y(v) + 4} text-anchor="end">
            {v}
          </text>
        </g>
      ))}
      {ceiling <= top ? (
        <g>
          <line class="ceiling" x1={pad.l} x2={w - pad.r} y1={y(ceiling)} y2={y(ceiling)} />
          <text class="axis" x={w - pad.r} y={y(ceiling) - 4} text-anchor="end">
            {labels.ceiling} {ceiling}
          </text>
        </g>
      ) : null}
      {rows.map((r, i) =>
        r.before !== null && r.before > r.after ? (
          <rect
            class="spend"
            x={x(i) - 5}
            y={y(r.before)}
            width={10}
            height={Math.max(1, y(r.after) - y(r.before))}
          />
        ) : null,
      )}
      <polyline class="line" points={points} fill="none" />
      {rows.map((r, i) => (
        <circle class="point" cx={x(i)} cy={y(r.after)} r={4} data-left={r.after}>
          <title>
            {labels.left}: {r.after}
          </title>
        </circle>
      ))}
    </svg>
  );
}

/** Each die size: how often each face came up, against a fair die's expectation (the line). */
export function DiceChart({
  sizes,
  labels,
}: {
  sizes: DieSizeStats[];
  labels: { title: (s: DieSizeStats) => string; chart: string };
}) {
  const shown = sizes.filter((s) => s.sides <= 20).slice(0, 4);
  if (shown.length === 0) return null;
  const w = 640;
  const each = 150;
  const h = each * shown.length;
  return (
    <svg class="chart dice-chart" viewBox={`0 0 ${w} ${h}`} role="img" aria-label={labels.chart}>
      {shown.map((s, row) => {
        const top = row * each + 22;
        const height = each - 50;
        const max = Math.max(s.expectedPerFace, ...s.faceCounts, 1);
        const bar = (w - 40) / s.sides;
        const ey = top + height * (1 - s.expectedPerFace / max);
        return (
          <g data-sides={s.sides}>
            <text class="axis" x={4} y={top - 6}>
              {labels.title(s)}
            </text>
            {s.faceCounts.map((n, i) => (
              <g>
                <rect
                  class="bar"
                  x={30 + i * bar + 2}
                  y={top + height * (1 - n / max)}
                  width={Math.max(1, bar - 4)}
                  height={(height * n) / max}
                >
                  <title>
                    {i + 1}: {n}
                  </title>
                </rect>
                <text class="axis" x={30 + i * bar + bar / 2} y={top + height + 14} text-anchor="middle">
                  {i + 1}
                </text>
              </g>
            ))}
            <line class="expected" x1={30} x2={w - 10} y1={ey} y2={ey} />
          </g>
        );
      })}
    </svg>
  );
}
