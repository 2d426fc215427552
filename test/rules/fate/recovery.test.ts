import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { consequenceMayClear } from "../../../src/rules/fate/recovery.js";
import { SEVERITIES } from "../../../src/rules/fate/stress.js";

const none = { scenes: 0, sessions: 0, scenarios: 0 };

describe("consequence recovery (docs/rules/fate.md §3.3)", () => {
  it("mild clears after a full scene, moderate after a session, severe after a scenario", () => {
    expect(consequenceMayClear("mild", none)).toBe(false);
    expect(consequenceMayClear("mild", { ...none, scenes: 1 })).toBe(true);
    expect(consequenceMayClear("moderate", { ...none, scenes: 3 })).toBe(false);
    expect(consequenceMayClear("moderate", { ...none, sessions: 1 })).toBe(true);
    expect(consequenceMayClear("severe", { ...none, sessions: 2 })).toBe(false);
    expect(consequenceMayClear("severe", { ...none, scenarios: 1 })).toBe(true);
  });

  it("property: a longer break ends the shorter ones too, and more time never makes it early again", () => {
    const since = fc.record({
      scenes: fc.integer({ min: 0, max: 3 }),
      sessions: fc.integer({ min: 0, max: 3 }),
      scenarios: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(fc.constantFrom(...SEVERITIES), since, since, (severity, a, b) => {
        const later = {
          scenes: a.scenes + b.scenes,
          sessions: a.sessions + b.sessions,
          scenarios: a.scenarios + b.scenarios,
        };
        if (consequenceMayClear(severity, a)) expect(consequenceMayClear(severity, later)).toBe(true);
        if (a.scenarios > 0) expect(consequenceMayClear(severity, a)).toBe(true);
      }),
    );
  });
});
