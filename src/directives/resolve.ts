/**
 * Resolution: what the directives of a page mean for a set of agents under a policy. The generic
 * directives and those of the agents' own names add up ("the sum of the negative rules"); the
 * most restrictive value wins; every restriction keeps the directive (and so the source) that
 * caused it.
 */
import { describeValue, RobotsError } from "../errors.js";
import { checkOptionNames, copyStrings } from "../options.js";
import { timeOption } from "./dates.js";
import type { DirectiveSet } from "./list.js";
import { asciiLower, IMAGE_PREVIEWS, omittedFor, trimSpace } from "./list.js";
import type {
  Directive, DirectivePolicy, DirectiveResolution, IgnoredDirective, ImagePreview, ResolveOptions, RestrictedField,
  Restriction,
} from "./types.js";

const POLICIES: readonly DirectivePolicy[] = ["google", "bing", "yandex", "specific-overrides-generic"];

/** The agents asked about, lower-cased; a string or an array of strings. */
export function agentNames(agents: unknown): string[] {
  const refuse = (): never => {
    throw new RobotsError("ROBOTS_ERR_INVALID_AGENT", "agents must be a string or an array of strings");
  };
  const list = typeof agents === "string" ? [agents] : Array.isArray(agents) ? copyStrings(agents, refuse) : refuse();
  return list.map((agent) => asciiLower(trimSpace(agent)));
}

function resolveOptions(options: ResolveOptions | undefined): { policy: DirectivePolicy; now: number } {
  checkOptionNames(options, ["policy", "now"]);
  const policy = options?.policy ?? "google";
  if (!POLICIES.includes(policy)) {
    throw new RobotsError("ROBOTS_ERR_INVALID_OPTION", `policy must be one of ${POLICIES.join(", ")}; got ${describeValue(policy)}`);
  }
  return { policy, now: timeOption(options?.now) };
}

/** Numeric limits where the smallest wins; `null` (no directive, or -1) is no limit. */
class Limit<T> {
  value: T | null = null;
  private causes: Directive[] = [];

  constructor(private readonly smaller: (a: T, b: T) => boolean) {}

  offer(value: T, directive: Directive): void {
    if (this.value === null || this.smaller(value, this.value)) {
      this.value = value;
      this.causes = [directive];
    } else if (!this.smaller(this.value, value)) {
      this.causes.push(directive); // equal: both caused it
    }
  }

  restrictions(field: RestrictedField): Restriction[] {
    return this.causes.map((directive) => ({ field, directive }));
  }
}

/** Resolves a page's directives for `agents` (already lower-cased). */
export function resolveDirectives(set: DirectiveSet, agents: readonly string[], options?: ResolveOptions): DirectiveResolution {
  const { policy, now } = resolveOptions(options);
  const wanted = new Set(agents);
  const applies = (entry: { agent: string | null }) => entry.agent === null || wanted.has(entry.agent);
  let directives = set.directives.filter(applies);
  let unknown = set.unknown.filter(applies);
  let invalid = set.invalid.filter(applies);
  const ignored: IgnoredDirective[] = [];

  const hasSpecific = agents.some((agent) => set.groups.has(agent));
  const replaced = policy === "specific-overrides-generic" && hasSpecific;
  const omitted = omittedFor(set, (agent) => (agent === null ? !replaced : wanted.has(agent)));
  if (replaced) {
    for (const directive of directives) if (directive.agent === null) ignored.push({ directive, reason: "replaced-by-specific" });
    directives = directives.filter((directive) => directive.agent !== null);
    unknown = unknown.filter((entry) => entry.agent !== null);
    invalid = invalid.filter((entry) => entry.agent !== null);
  }

  // Yandex: "if there are conflicting directives, the positive one is used".
  const positiveIndex = policy === "yandex" && directives.some((d) => d.name === "index" || d.name === "all");
  const positiveFollow = policy === "yandex" && directives.some((d) => d.name === "follow" || d.name === "all");
  const honoursArchive = (name: string) => policy === "bing" || (policy === "yandex" && name === "noarchive");

  const restrictions: Restriction[] = [];
  const restrict = (field: RestrictedField, directive: Directive) => restrictions.push({ field, directive });
  let index = true;
  let follow = true;
  let snippet = true;
  let imageIndex = true;
  let translate = true;
  let archive = true;
  let noindexSeen = false;
  let indexIfEmbeddedSeen = false;
  const maxSnippet = new Limit<number>((a, b) => a < b);
  const maxVideoPreview = new Limit<number>((a, b) => a < b);
  const maxImagePreview = new Limit<ImagePreview>((a, b) => IMAGE_PREVIEWS.indexOf(a) < IMAGE_PREVIEWS.indexOf(b));
  const unavailableAfter = new Limit<Date>((a, b) => a.getTime() < b.getTime());
  const obsolete: Directive[] = [];
  const ai: Directive[] = [];

  const noSnippet = (directive: Directive) => {
    snippet = false;
    restrict("snippet", directive);
    maxSnippet.offer(0, directive);
    maxVideoPreview.offer(0, directive); // "no text snippet or video preview"
  };

  for (const directive of directives) {
    switch (directive.name) {
      case "noindex":
      case "none":
      case "nofollow": {
        const indexPart = directive.name !== "nofollow";
        const followPart = directive.name !== "noindex";
        const indexApplies = indexPart && !positiveIndex;
        const followApplies = followPart && !positiveFollow;
        if (indexApplies) {
          index = false;
          noindexSeen = true;
          restrict("index", directive);
        }
        if (followApplies) {
          follow = false;
          restrict("follow", directive);
        }
        if (!indexApplies && !followApplies) ignored.push({ directive, reason: "positive-wins" });
        break;
      }
      case "nosnippet":
        noSnippet(directive);
        break;
      case "max-snippet":
        if (directive.value === 0) noSnippet(directive); // max-snippet:0 is nosnippet
        else if (directive.value > 0) maxSnippet.offer(directive.value, directive);
        break;
      case "max-video-preview":
        if (directive.value >= 0) maxVideoPreview.offer(directive.value, directive);
        break;
      case "max-image-preview":
        if (directive.value !== "large") maxImagePreview.offer(directive.value, directive);
        break;
      case "unavailable_after":
        unavailableAfter.offer(directive.value, directive);
        break;
      case "noimageindex":
        imageIndex = false;
        restrict("imageIndex", directive);
        break;
      case "notranslate":
        translate = false;
        restrict("translate", directive);
        break;
      case "noarchive":
      case "nocache":
        if (honoursArchive(directive.name)) {
          archive = false;
          restrict("archive", directive);
        } else {
          ignored.push({ directive, reason: "not-honoured-by-policy" });
        }
        break;
      case "indexifembedded":
        indexIfEmbeddedSeen = true;
        break;
      case "noodp":
      case "noydir":
      case "nositelinkssearchbox":
        obsolete.push(directive);
        break;
      case "noai":
      case "noimageai":
      case "noml":
        ai.push(directive);
        break;
      // all, index, follow: the defaults; in google and bing they never cancel a restriction.
    }
  }

  restrictions.push(
    ...maxSnippet.restrictions("maxSnippet"),
    ...maxVideoPreview.restrictions("maxVideoPreview"),
    ...maxImagePreview.restrictions("maxImagePreview"),
    ...unavailableAfter.restrictions("unavailableAfter"),
  );
  // A passed unavailable_after makes "may I index" answer no; the date is still reported.
  const expired = unavailableAfter.value !== null && now > unavailableAfter.value.getTime();
  if (expired) {
    index = false;
    restrictions.push(...unavailableAfter.restrictions("index"));
  }

  return {
    agents: [...agents],
    policy,
    index,
    follow,
    snippet,
    maxSnippet: maxSnippet.value,
    maxImagePreview: maxImagePreview.value ?? "large",
    maxVideoPreview: maxVideoPreview.value,
    imageIndex,
    translate,
    archive,
    indexIfEmbedded: indexIfEmbeddedSeen && noindexSeen,
    unavailableAfter: unavailableAfter.value,
    expired,
    ai: {
      noai: ai.some((d) => d.name === "noai"),
      noimageai: ai.some((d) => d.name === "noimageai"),
      noml: ai.some((d) => d.name === "noml"),
      directives: ai,
    },
    restrictions,
    ignored,
    obsolete,
    unknown,
    invalid,
    omitted,
  };
}
