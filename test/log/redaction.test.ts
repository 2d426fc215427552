import { Writable } from "node:stream";
import { DiscordAPIError } from "discord.js";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, log: createLogger("info", stream) };
}

describe("logs", () => {
  it("never carry the message a failed Discord call tried to send, nor the interaction token in its URL", () => {
    const { lines, log } = capture();
    const secret = "Your dice: 🎲 5 🎲 3 = **8**";
    const token = "aW50ZXJhY3Rpb246MTIzOnNlY3JldC10b2tlbg";
    const error = new DiscordAPIError(
      { code: 0, message: "500: Internal Server Error" },
      0,
      500,
      "PATCH",
      `http://127.0.0.1/api/v10/webhooks/1/${token}/messages/@original`,
      { body: { content: secret }, files: undefined },
    );
    log.warn({ err: error, effect: "editInteractionReply" }, "effect failed");
    const text = lines.join("");
    expect(text).toContain("effect failed");
    expect(text).toContain("[redacted]");
    expect(text).not.toContain("🎲 5");
    expect(text).not.toContain(token);
  });
});
