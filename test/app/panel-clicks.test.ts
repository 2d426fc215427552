import { describe, expect, it } from "vitest";
import { isFromOwnMessage, isFromPanel } from "../../src/app/flows.js";
import type { Invocation } from "../../src/app/use-case.js";

/** Which message a click came from decides whether the answer updates it (src/app/flows.ts). */
describe("a click on a flow's panel or on the actor's own message", () => {
  const click = (source?: { messageId: string; public: boolean }) => ({
    invocation: {
      ...(source ? { sourceMessageId: source.messageId, sourceMessagePublic: source.public } : {}),
    } as Invocation,
  });
  const stored = { panelMessageId: "10" };
  const notYetStored = { panelMessageId: null };

  it("is on the panel when it is the panel's message", () => {
    expect(isFromPanel(click({ messageId: "10", public: true }), stored)).toBe(true);
    expect(isFromOwnMessage(click({ messageId: "10", public: true }), stored)).toBe(false);
    expect(isFromPanel(click({ messageId: "11", public: true }), stored)).toBe(false);
    expect(isFromOwnMessage(click({ messageId: "11", public: false }), stored)).toBe(true);
  });

  it("is on the panel when it is on a public message before the panel's id is stored, never on a private one", () => {
    expect(isFromPanel(click({ messageId: "12", public: true }), notYetStored)).toBe(true);
    // A duellist's secret view must not be taken for the panel (nor the panel for it: it would show their dice).
    expect(isFromOwnMessage(click({ messageId: "12", public: true }), notYetStored)).toBe(false);
    expect(isFromPanel(click({ messageId: "13", public: false }), notYetStored)).toBe(false);
    expect(isFromOwnMessage(click({ messageId: "13", public: false }), notYetStored)).toBe(true);
  });

  it("a slash command is on no message", () => {
    expect(isFromPanel(click(), stored)).toBe(false);
    expect(isFromOwnMessage(click(), notYetStored)).toBe(false);
  });
});
