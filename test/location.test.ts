/** robotsUrl and originOf: which robots.txt governs a page (docs/crawler-policy.md section 1). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { originOf, robotsUrl, RobotsError } from "../src/index.js";
import { fuzzRuns } from "./support/fuzz.js";
import { withCode } from "./support/robots-error.js";

const { seed, numRuns } = fuzzRuns(20261126, 1000);

/** One test per [page URL, robots.txt URL] pair; the title takes the pair through %s. */
function robotsUrlCases(title: string, cases: [string, string][]): void {
  it.each(cases)(title, (page, expected) => {
    expect(robotsUrl(page)).toBe(expected);
  });
}

describe("RFC 9309 2.3: robots.txt sits at the top of the page's scheme, host and port", () => {
  robotsUrlCases("%s -> %s", [
    ["https://example.com/a/b?c=d#e", "https://example.com/robots.txt"],
    ["http://example.com", "http://example.com/robots.txt"],
    ["https://www.example.com/", "https://www.example.com/robots.txt"],
    // A robots.txt in a subdirectory is not one: the page's own folder does not matter.
    ["https://example.com/folder/robots.txt", "https://example.com/robots.txt"],
  ]);

  it("keeps http and https, and hosts that differ by a subdomain, apart", () => {
    expect(originOf("http://example.com/")).not.toBe(originOf("https://example.com/"));
    expect(originOf("https://example.com/")).not.toBe(originOf("https://www.example.com/"));
  });
});

describe("ports", () => {
  robotsUrlCases("elides the default port: %s -> %s", [
    ["http://example.com:80/x", "http://example.com/robots.txt"],
    ["https://example.com:443/x", "https://example.com/robots.txt"],
    ["ftp://example.com:21/pub/file", "ftp://example.com/robots.txt"],
  ]);

  robotsUrlCases("keeps any other port: %s -> %s", [
    ["http://example.com:8181/x", "http://example.com:8181/robots.txt"],
    ["https://example.com:80/x", "https://example.com:80/robots.txt"],
    ["http://example.com:443/x", "http://example.com:443/robots.txt"],
  ]);
});

describe("hosts", () => {
  robotsUrlCases("lower-cases scheme and host but not the path: %s -> %s", [
    ["http://EXAMPLE.Com/Path", "http://example.com/robots.txt"],
    ["HTTPS://Example.COM/", "https://example.com/robots.txt"],
  ]);

  robotsUrlCases("uses the ASCII (punycode) form of an IDN: %s -> %s", [
    ["https://müller.eu/seite", "https://xn--mller-kva.eu/robots.txt"],
    ["https://MÜLLER.eu/", "https://xn--mller-kva.eu/robots.txt"],
    ["https://xn--mller-kva.eu/", "https://xn--mller-kva.eu/robots.txt"],
    ["http://例え.テスト/", "http://xn--r8jz45g.xn--zckzah/robots.txt"],
  ]);

  robotsUrlCases("keeps an IPv4 host: %s -> %s", [
    ["http://192.0.2.10/x", "http://192.0.2.10/robots.txt"],
    ["http://192.0.2.10:8080/x", "http://192.0.2.10:8080/robots.txt"],
    // The WHATWG parser normalises other IPv4 notations to dotted decimal.
    ["http://0xC0.0.2.10/", "http://192.0.2.10/robots.txt"],
  ]);

  robotsUrlCases("keeps an IPv6 host in brackets, compressed: %s -> %s", [
    ["http://[2001:DB8::1]/x", "http://[2001:db8::1]/robots.txt"],
    ["https://[2001:db8:0:0:0:0:0:1]:8443/", "https://[2001:db8::1]:8443/robots.txt"],
    ["http://[::1]:80/", "http://[::1]/robots.txt"],
  ]);

  it("drops userinfo", () => {
    expect(robotsUrl("https://user:secret@example.com/private")).toBe("https://example.com/robots.txt");
    expect(originOf("ftp://anonymous@files.example/pub")).toBe("ftp://files.example");
  });

  robotsUrlCases("removes one trailing dot (the same host in DNS): %s -> %s", [
    ["https://example.com./x", "https://example.com/robots.txt"],
    ["https://müller.eu.:8080/", "https://xn--mller-kva.eu:8080/robots.txt"],
    ["http://192.0.2.10./", "http://192.0.2.10/robots.txt"],
  ]);

  it("accepts URL objects", () => {
    expect(robotsUrl(new URL("https://Example.com:443/a"))).toBe("https://example.com/robots.txt");
  });
});

describe("errors", () => {
  it.each(["mailto:someone@example.com", "file:///etc/passwd", "data:text/plain,hi", "javascript:alert(1)", "ws://example.com/", "urn:isbn:0451450523"])(
    "refuses a scheme without robots.txt: %s",
    (url) => {
      expect(() => robotsUrl(url)).toThrow(withCode("ROBOTS_ERR_UNSUPPORTED_SCHEME"));
    },
  );

  it("names the scheme in the message", () => {
    expect(() => robotsUrl("mailto:someone@example.com")).toThrow(/"mailto:" URLs have no robots.txt \(only http, https and ftp\)/);
  });

  it.each(["", "example.com/page", "/relative/path", "http://", "http://exa mple.com/", "https://[::1/", "http://.", "http://example.com../"])(
    "refuses what is not an absolute URL with a host: %j",
    (url) => {
      expect(() => originOf(url)).toThrow(withCode("ROBOTS_ERR_INVALID_URL"));
    },
  );

  it.each([undefined, null, 42, {}])("refuses a non-string: %j", (value) => {
    expect(() => originOf(value as never)).toThrow(withCode("ROBOTS_ERR_INVALID_URL"));
  });
});

describe("any input (fast-check)", () => {
  const pageUrl = fc.webUrl({
    validSchemes: ["http", "https", "ftp"],
    withQueryParameters: true,
    withFragments: true,
    authoritySettings: { withIPv4: true, withIPv6: true, withPort: true, withUserInfo: true },
  });

  it("puts robots.txt at the top of a page's origin, and a robots.txt URL governs itself", () => {
    fc.assert(
      fc.property(pageUrl, (page) => {
        const robots = robotsUrl(page);
        const parsed = new URL(robots);
        expect(parsed.pathname).toBe("/robots.txt");
        expect(parsed.search + parsed.hash + parsed.username + parsed.password).toBe("");
        expect(originOf(robots)).toBe(originOf(page));
        expect(robotsUrl(robots)).toBe(robots);
      }),
      { seed, numRuns },
    );
  });

  it("answers any string with a robots.txt URL or a RobotsError with a code, never another error", () => {
    const text = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      // `http:host` without slashes is still a URL to the WHATWG parser (a special scheme).
      pageUrl.map((url) => url.replace(/\//g, "")),
      fc.string({ unit: "binary", maxLength: 40 }).map((rest) => `http://${rest}`),
    );
    const seen = { answers: 0, errors: 0 };
    fc.assert(
      fc.property(text, (input) => {
        let answer: string | undefined;
        let thrown: unknown;
        try {
          answer = robotsUrl(input);
        } catch (error) {
          thrown = error;
        }
        if (thrown === undefined) {
          seen.answers++;
          expect(answer).toMatch(/^(https?|ftp):\/\/[^/?#]+\/robots\.txt$/);
        } else {
          seen.errors++;
          expect(thrown).toBeInstanceOf(RobotsError);
          expect(["ROBOTS_ERR_INVALID_URL", "ROBOTS_ERR_UNSUPPORTED_SCHEME"]).toContain((thrown as RobotsError).code);
        }
      }),
      { seed, numRuns },
    );
    // Both outcomes occur often: the property is not decided by one branch alone.
    expect(Math.min(seen.answers, seen.errors)).toBeGreaterThan(numRuns / 10);
  });
});
