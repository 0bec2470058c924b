/**
 * Google's robots.txt compliance suite (test/fixtures/conformance, 16 files, 146 expectations).
 *
 * - `google` profile: every expectation holds, for every implementation.
 * - `rfc9309` profile: the expectations listed in RFC9309_DIFFERENCES (keyed by file + URL +
 *   agent, each with its reason) must come out the other way, with the explanation given there;
 *   every other expectation still holds.
 */
import { describe, expect, it } from "vitest";
import type { Explanation, Profile, RobotsTxt } from "../src/types.js";
import { loadConformance } from "./support/fixtures.js";
import { implementations } from "./support/implementations.js";
import type { SpecExpectation } from "./support/textproto.js";

interface Difference {
  file: string;
  url: string;
  agent: string;
  /** How many expectations of the suite have this key (the same URL can be asked of several bodies). */
  count: number;
  /** What the rfc9309 profile answers instead. */
  rfc9309: Explanation;
  reason: string;
}

/** Expectations of the suite that the rfc9309 profile answers differently, and why. */
const RFC9309_DIFFERENCES: readonly Difference[] = [
  {
    file: "index-page.textproto",
    url: "http://foo.com/allowed-slash/",
    agent: "foobot",
    count: 1,
    rfc9309: { allowed: false, line: 3, rule: { kind: "disallow", pattern: "/", group: "global" } },
    reason:
      "Google-specific index-page rule (robots-txt.md 3, behaviour.md 15): `Allow: /allowed-slash/index.html` also allows " +
      "/allowed-slash/ only in the google profile; RFC 9309 has no such rule, so `Disallow: /` decides (robots-txt.md 7, last row).",
  },
  {
    file: "non-ascii-paths.textproto",
    url: "http://foo.bar/foo/bar/ツ",
    agent: "FooBot",
    count: 2,
    rfc9309: { allowed: true, line: 3, rule: { kind: "allow", pattern: "/foo/bar/%E3%83%84", group: "specific" } },
    reason:
      "RFC 9309 2.2.2: octets outside US-ASCII MUST be percent-encoded before comparison. The suite leaves that to the caller " +
      "(google profile: raw ツ in the URL never matches); the rfc9309 profile encodes the URL's non-ASCII bytes too (behaviour.md 18), " +
      "so `Allow: /foo/bar/ツ` and `Allow: /foo/bar/%E3%83%84` both match (robots-txt.md 7, second row).",
  },
  {
    file: "non-ascii-paths.textproto",
    url: "http://foo.bar/foo/bar/baz",
    agent: "FooBot",
    count: 1,
    rfc9309: { allowed: true, line: 3, rule: { kind: "allow", pattern: "/foo/bar/baz", group: "specific" } },
    reason:
      "RFC 9309 2.2.2 / RFC 3986 6.2.2.2: %XX of unreserved characters is equivalent to the character, so " +
      "`Allow: /foo/bar/%62%61%7A` is `/foo/bar/baz` in the rfc9309 profile (behaviour.md 12); the suite expects no decoding " +
      "(robots-txt.md 7, first row).",
  },
];

const keyOf = (file: string, url: string, agent: string) => JSON.stringify([file, url, agent]);
const differences = new Map(RFC9309_DIFFERENCES.map((d) => [keyOf(d.file, d.url, d.agent), d]));

interface Case {
  file: string;
  test: number;
  body: Uint8Array;
  expectation: SpecExpectation;
  name: string;
}

const files = loadConformance();
const cases: Case[] = files.flatMap(({ file, tests }) =>
  tests.flatMap((test, t) =>
    test.expectations.map((expectation, e) => ({
      file,
      test: t,
      body: test.robotstxt,
      expectation,
      name: `${file} #${t + 1}.${e + 1}: ${JSON.stringify(expectation.url)} for ${JSON.stringify(expectation.agent)} is ${expectation.outcome}`,
    })),
  ),
);

function answer(robots: RobotsTxt, { url, agent }: SpecExpectation): Explanation {
  const explanation = robots.explain(url, agent);
  // The three APIs must agree on every case of the suite.
  expect(robots.isAllowed(url, agent)).toBe(explanation.allowed);
  const batch = robots.classifyWithLines([url], agent);
  expect([batch.allowed[0], batch.lines[0]]).toEqual([explanation.allowed ? 1 : 0, explanation.line]);
  return explanation;
}

describe("conformance: the suite as read", () => {
  it("146 expectations over 16 files", () => {
    expect(files).toHaveLength(16);
    expect(cases).toHaveLength(146);
  });

  it("every RFC9309_DIFFERENCES entry names expectations of the suite (count checked), and they are all google-side outcomes", () => {
    for (const difference of RFC9309_DIFFERENCES) {
      const matching = cases.filter((c) => keyOf(c.file, c.expectation.url, c.expectation.agent) === keyOf(difference.file, difference.url, difference.agent));
      expect(matching, difference.url).toHaveLength(difference.count);
      for (const c of matching) expect(c.expectation.outcome === "ALLOWED").toBe(!difference.rfc9309.allowed);
      expect(difference.reason.length).toBeGreaterThan(40);
    }
    expect(cases.filter((c) => differences.has(keyOf(c.file, c.expectation.url, c.expectation.agent)))).toHaveLength(4);
  });
});

describe.each(implementations)("$name", (impl) => {
  const parsed = new Map<string, RobotsTxt>();
  const robotsFor = (c: Case, profile: Profile): RobotsTxt => {
    const key = `${c.file}#${c.test}#${profile}`;
    let robots = parsed.get(key);
    if (robots === undefined) {
      robots = impl.parse(c.body, { profile });
      parsed.set(key, robots);
    }
    return robots;
  };

  describe("google profile: every expectation holds", () => {
    it.each(cases.map((c) => [c.name, c] as const))("google: %s", (_name, c) => {
      const explanation = answer(robotsFor(c, "google"), c.expectation);
      expect(explanation.allowed, `${c.file}: ${c.expectation.explanation}`).toBe(c.expectation.outcome === "ALLOWED");
    });
  });

  describe("rfc9309 profile: the listed expectations differ, for their reason; all others hold", () => {
    it.each(cases.map((c) => [c.name, c] as const))("rfc9309: %s", (_name, c) => {
      const explanation = answer(robotsFor(c, "rfc9309"), c.expectation);
      const difference = differences.get(keyOf(c.file, c.expectation.url, c.expectation.agent));
      if (difference === undefined) {
        expect(explanation.allowed, `${c.file}: ${c.expectation.explanation}`).toBe(c.expectation.outcome === "ALLOWED");
      } else {
        expect(explanation.allowed, difference.reason).toBe(c.expectation.outcome !== "ALLOWED");
        expect(explanation, difference.reason).toEqual(difference.rfc9309);
      }
    });
  });
});
