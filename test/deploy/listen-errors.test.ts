import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config.js";
import { listenError } from "../../src/http.js";

const failure = (code: string) => Object.assign(new Error(code), { code });

/** The health endpoints and the campaign page say a bad address as the setting it came from. */
describe("an address the bot cannot listen on", () => {
  it("names HTTP_PORT / HTTP_HOST for the health endpoints and WEB_PORT / WEB_HOST for the page", () => {
    const web = { host: "WEB_HOST", port: "WEB_PORT" };
    expect(listenError(failure("EADDRINUSE"), "127.0.0.1", 8090, web).message).toMatch(
      /^WEB_PORT 8090 is already in use on 127\.0\.0\.1 .* Set WEB_PORT to a free port/,
    );
    expect(listenError(failure("EADDRNOTAVAIL"), "10.9.9.9", 8090, web).message).toMatch(
      /^WEB_HOST 10\.9\.9\.9 is not/,
    );
    expect(listenError(failure("EACCES"), "0.0.0.0", 80).message).toContain(
      "Set HTTP_PORT to a port above 1023",
    );
    expect(listenError(failure("EADDRINUSE"), "127.0.0.1", 8080)).toBeInstanceOf(ConfigError);
    const other = failure("EMFILE");
    expect(listenError(other, "127.0.0.1", 8080)).toBe(other);
  });
});
