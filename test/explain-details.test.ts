/** The details behind a verdict: every matching rule in rank order, the groups and why they apply. */
import { describe, expect, it } from "vitest";
import { implementations } from "./support/implementations.js";

const BODY = [
  "User-agent: FooBot/2.1", // 1
  "Crawl-delay: 5", //         2: does not end the user-agent run
  "User-agent: *", //          3
  "Disallow: /", //            4
  "Allow: /public", //         5
  "Allow: /d/index.html", //   6
  "", //                       7
  "User-agent: foobot", //     8
  "Disallow: /private/*.pdf$", // 9
  "Disallow: /public", //     10
].join("\n");

describe.each(implementations)("$name explains in detail", (impl) => {
  it("lists every matching rule, the winner first, with priorities (RFC 9309 2.2.2: longest match, allow on a tie)", () => {
    const robots = impl.parse(BODY);
    expect(robots.matchingRules("http://a.com/public/x", "Other")).toEqual([
      { kind: "allow", pattern: "/public", group: "global", line: 5, priority: 7, indexPage: false },
      { kind: "disallow", pattern: "/", group: "global", line: 4, priority: 1, indexPage: false },
    ]);
    expect(robots.matchingRules("http://a.com/public/x", "foobot")).toEqual([
      { kind: "allow", pattern: "/public", group: "specific", line: 5, priority: 7, indexPage: false },
      { kind: "disallow", pattern: "/public", group: "specific", line: 10, priority: 7, indexPage: false },
      { kind: "disallow", pattern: "/", group: "specific", line: 4, priority: 1, indexPage: false },
    ]);
    expect(robots.matchingRules("http://a.com/d/", "x")[0]).toEqual({ kind: "allow", pattern: "/d/$", group: "global", line: 6, priority: 4, indexPage: true });
    expect(robots.matchingRules("http://a.com/nothing", "foo")).toEqual([{ kind: "disallow", pattern: "/", group: "global", line: 4, priority: 1, indexPage: false }]);
    expect(impl.parse("User-agent: a\nDisallow: /x\n").matchingRules("http://a.com/x", "b")).toEqual([]);
    robots.dispose();
  });

  it("describes the groups with their user-agent lines as written and their rule lines", () => {
    const robots = impl.parse(BODY);
    expect(robots.groups).toEqual([
      {
        index: 0,
        userAgents: [
          { line: 1, value: "FooBot/2.1", global: false, token: "FooBot" },
          { line: 3, value: "*", global: true, token: "" },
        ],
        ruleLines: 3,
      },
      { index: 1, userAgents: [{ line: 8, value: "foobot", global: false, token: "foobot" }], ruleLines: 2 },
    ]);
    expect(robots.groupsFor("FOOBOT")).toEqual({ scope: "specific", groups: [0, 1] });
    expect(robots.groupsFor("other")).toEqual({ scope: "global", groups: [0] });
    expect(impl.parse("User-agent: a\nDisallow: /\n").groupsFor("b")).toEqual({ scope: "global", groups: [] });
    robots.dispose();
  });
});
