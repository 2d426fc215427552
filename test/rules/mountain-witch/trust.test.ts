import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DomainError } from "../../../src/rules/errors.js";
import {
  applyChapterStart,
  applyTrustSpend,
  openTrustRound,
  proposeTrust,
  refillTrust,
  revealTrustRound,
  spendTrust,
  submitTrust,
  type TrustLink,
  type TrustUse,
  trustRoundVisibleTo,
  validateInitialTrust,
  validateTrustAdjustment,
} from "../../../src/rules/mountain-witch/index.js";
import { expectRefusal, link } from "./helpers.js";

describe("spending trust (docs/rules/mountain-witch.md §1.3)", () => {
  it("spends the points the giver gave the holder, and nobody else's", () => {
    const links = [link(1, 2, 3), link(2, 1, 1)];
    const spend = spendTrust(links, 1, 2, 2, "betray");
    expect(spend).toEqual({ use: "betray", giverId: 1, holderId: 2, amount: 2, before: 3, after: 1 });
    const after = applyTrustSpend(links, spend);
    expect(after).toEqual([link(1, 2, 1, 3), link(2, 1, 1)]);
    expectRefusal(() => spendTrust(after, 1, 2, 2, "betray"), "errors.mw.notEnoughTrust", {
      have: 1,
      need: 2,
    });
    expectRefusal(() => spendTrust(after, 3, 2, 1, "help"), "errors.mw.notEnoughTrust", { have: 0, need: 1 });
    expectRefusal(() => spendTrust(after, 2, 2, 1, "help"), "errors.mw.trustSelf");
    expectRefusal(() => spendTrust(after, 1, 2, 1.5, "betray"), "errors.mw.trustAmountInvalid");
  });

  it("values: whole, not below 0; at a chapter start +1 at most per target, any decrease", () => {
    expect(validateInitialTrust(7)).toBe(7);
    expectRefusal(() => validateInitialTrust(-1), "errors.mw.trustNegative");
    expectRefusal(() => validateInitialTrust(1.5), "errors.mw.trustNotInteger");
    expect(validateTrustAdjustment(2, 3)).toBe(3);
    expect(validateTrustAdjustment(2, 2)).toBe(2);
    expect(validateTrustAdjustment(5, 0)).toBe(0);
    expectRefusal(() => validateTrustAdjustment(2, 4), "errors.mw.trustRaiseTooHigh", { max: 3 });
    expectRefusal(() => validateTrustAdjustment(2, -1), "errors.mw.trustNegative");
  });

  it("property: points never go negative and never exceed the value that grants them", () => {
    const ids = [1, 2, 3];
    const matrix = fc.tuple(...Array.from({ length: 6 }, () => fc.integer({ min: 0, max: 5 })));
    const action = fc.record({
      giverId: fc.constantFrom(...ids),
      holderId: fc.constantFrom(...ids),
      amount: fc.integer({ min: -1, max: 6 }),
      use: fc.constantFrom<TrustUse>("help", "betray", "narration"),
      refill: fc.boolean(),
    });
    fc.assert(
      fc.property(matrix, fc.array(action, { maxLength: 30 }), (values, actions) => {
        let links: TrustLink[] = ids.flatMap((g) =>
          ids.filter((h) => h !== g).map((h) => ({ giverId: g, holderId: h, value: 0, points: 0 })),
        );
        links = refillTrust(links.map((l, i) => ({ ...l, value: values[i]! })));
        for (const a of actions) {
          if (a.refill) links = refillTrust(links);
          try {
            links = applyTrustSpend(links, spendTrust(links, a.giverId, a.holderId, a.amount, a.use));
          } catch (error) {
            expect(error).toBeInstanceOf(DomainError);
          }
          for (const l of links) {
            expect(l.points).toBeGreaterThanOrEqual(0);
            expect(l.points).toBeLessThanOrEqual(l.value);
          }
        }
      }),
    );
  });
});

describe("the chapter-start trust round", () => {
  const links = [
    link(1, 2, 0, 2),
    link(1, 3, 3, 3),
    link(2, 1, 1, 1),
    link(2, 3, 0, 0),
    link(3, 1, 2),
    link(3, 2, 2),
  ];

  it("secret mode: each player sees only their own row until everyone submitted; then all at once", () => {
    let round = openTrustRound({ chapter: 2, mode: "secret", giverIds: [1, 2, 3], links });
    round = proposeTrust(round, { giverId: 1, holderId: 2, value: 3 });
    round = proposeTrust(round, { giverId: 1, holderId: 3, value: 4 });
    expectRefusal(
      () => proposeTrust(round, { giverId: 2, holderId: 1, value: 3 }),
      "errors.mw.trustRaiseTooHigh",
      {
        max: 2,
      },
    );
    round = proposeTrust(round, { giverId: 2, holderId: 1, value: 0 });
    round = submitTrust(round, 1);
    expectRefusal(
      () => proposeTrust(round, { giverId: 1, holderId: 2, value: 2 }),
      "errors.mw.trustAlreadySubmitted",
    );
    const gmView = trustRoundVisibleTo(round, null);
    expect(gmView).toEqual({ submitted: [1], pending: [2, 3], own: null, proposals: null });
    expect(trustRoundVisibleTo(round, 2).own).toEqual([
      { giverId: 2, holderId: 1, value: 0 },
      { giverId: 2, holderId: 3, value: 0 },
    ]);
    expectRefusal(() => revealTrustRound(round), "errors.mw.trustRoundIncomplete");
    round = submitTrust(submitTrust(round, 2), 3);
    const { state, changes } = revealTrustRound(round);
    expect(changes).toEqual([
      { giverId: 1, holderId: 2, before: 2, after: 3 },
      { giverId: 1, holderId: 3, before: 3, after: 4 },
      { giverId: 2, holderId: 1, before: 1, after: 0 },
    ]);
    expect(trustRoundVisibleTo(state, null).proposals).toHaveLength(3);
    expectRefusal(() => revealTrustRound(state), "errors.mw.trustRoundClosed");
    // Chapter start: new values, points refilled to them.
    const start = applyChapterStart({ chapter: 2, links, changes, damage: [], characters: [] });
    expect(start.links).toEqual([
      link(1, 2, 3),
      link(1, 3, 4),
      link(2, 1, 0),
      link(2, 3, 0),
      link(3, 1, 2),
      link(3, 2, 2),
    ]);
  });

  it("5. «Повысить значение доверия на 1, которое даётся конкретному персонажу»: every value a player gives may go up by 1 in the same chapter, none by 2", () => {
    let round = openTrustRound({ chapter: 2, mode: "secret", giverIds: [1, 2, 3], links });
    const given = links.filter((l) => l.giverId === 1);
    expect(given.length).toBeGreaterThan(1);
    for (const l of given)
      round = proposeTrust(round, { giverId: 1, holderId: l.holderId, value: l.value + 1 });
    round = submitTrust(round, 1);
    const { changes } = revealTrustRound(round, { force: true });
    expect(changes).toEqual(
      given.map((l) => ({ giverId: 1, holderId: l.holderId, before: l.value, after: l.value + 1 })),
    );
    const other = links.find((l) => l.giverId === 2)!;
    expectRefusal(
      () => proposeTrust(round, { giverId: 2, holderId: other.holderId, value: other.value + 2 }),
      "errors.mw.trustRaiseTooHigh",
    );
  });

  it("2. «каждый записывает изменения на бумажку, а потом все одновременно показывают»: the GM may close it early, and only submitted values count", () => {
    let round = openTrustRound({ chapter: 2, mode: "open", giverIds: [1, 2, 3], links });
    round = proposeTrust(round, { giverId: 3, holderId: 1, value: 0 });
    round = proposeTrust(round, { giverId: 2, holderId: 1, value: 0 });
    round = submitTrust(round, 3);
    expect(trustRoundVisibleTo(round, 1).proposals).toEqual([
      { giverId: 3, holderId: 1, value: 0 },
      { giverId: 2, holderId: 1, value: 0 },
    ]);
    // Giver 2 set a value but never showed it: it is not applied.
    const revealed = revealTrustRound(round, { force: true });
    expect(revealed.changes).toEqual([{ giverId: 3, holderId: 1, before: 2, after: 0 }]);
    expect(revealed.unsubmitted).toEqual([1, 2]);
    expect(revealed.state.proposals).toEqual([{ giverId: 3, holderId: 1, value: 0 }]);
    expectRefusal(
      () => proposeTrust(round, { giverId: 4, holderId: 1, value: 0 }),
      "errors.mw.notInTrustRound",
    );
    expectRefusal(() => proposeTrust(round, { giverId: 1, holderId: 1, value: 0 }), "errors.mw.trustSelf");
  });

  it("property: a trust round never changes a value by more than +1, nor below 0", () => {
    const proposal = fc.record({
      giverId: fc.constantFrom(1, 2, 3),
      holderId: fc.constantFrom(1, 2, 3),
      value: fc.integer({ min: -3, max: 9 }),
    });
    fc.assert(
      fc.property(fc.array(proposal, { maxLength: 20 }), (proposals) => {
        let round = openTrustRound({ chapter: 3, mode: "secret", giverIds: [1, 2, 3], links });
        for (const p of proposals) {
          try {
            round = proposeTrust(round, p);
          } catch (error) {
            expect(error).toBeInstanceOf(DomainError);
          }
        }
        const { changes } = revealTrustRound(round, { force: true });
        const start = applyChapterStart({ chapter: 3, links, changes, damage: [], characters: [] });
        for (const l of start.links) {
          const before = links.find((o) => o.giverId === l.giverId && o.holderId === l.holderId)!;
          expect(l.value).toBeLessThanOrEqual(before.value + 1);
          expect(l.value).toBeGreaterThanOrEqual(0);
          expect(l.points).toBe(l.value);
        }
      }),
    );
  });
});
