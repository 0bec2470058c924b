/**
 * The profile switches. Every difference between the `google` and `rfc9309` profiles is one
 * named switch here, so that the rest of the code reads the switch, never the profile name.
 */
import type { Profile } from "../types.js";

/** Google's line buffer is 2083 * 8 = 16,664 bytes, one of which holds the C string terminator. */
export const GOOGLE_MAX_LINE_BYTES = 2083 * 8 - 1;

export interface ProfileSwitches {
  readonly profile: Profile;
  /** Bytes kept per line; longer lines are cut and flagged `tooLong` (decision 6). */
  readonly maxLineBytes: number;
  /** An allow pattern ending in `/index.htm...` also allows its directory (decision 15). */
  readonly indexPageAllow: boolean;
  /** Percent-encoding is normalised on both sides before comparison (decisions 12 and 18). */
  readonly normalisePercentEncoding: boolean;
  /** The URL path ends at its first NUL byte (decision 17). */
  readonly pathEndsAtNul: boolean;
  /** `/robots.txt` is allowed whatever the rules say (decision 19). */
  readonly robotsTxtAlwaysAllowed: boolean;
}

const GOOGLE: ProfileSwitches = Object.freeze({
  profile: "google",
  // Google-specific: fixed-size line buffer in robots.cc.
  maxLineBytes: GOOGLE_MAX_LINE_BYTES,
  // Google-specific: 'index.htm' and 'index.html' are normalised to the directory.
  indexPageAllow: true,
  // Google-specific: URLs must be given already escaped; nothing is decoded.
  normalisePercentEncoding: false,
  // Google-specific: the path is handed to the matcher as a C string.
  pathEndsAtNul: true,
  robotsTxtAlwaysAllowed: false,
});

const RFC9309: ProfileSwitches = Object.freeze({
  profile: "rfc9309",
  maxLineBytes: Infinity,
  indexPageAllow: false,
  // RFC 9309 2.2.2: octets are percent-encoded / unencoded before comparison.
  normalisePercentEncoding: true,
  pathEndsAtNul: false,
  // RFC 9309 2.2.2: the /robots.txt URI is implicitly allowed.
  robotsTxtAlwaysAllowed: true,
});

export function profileSwitches(profile: Profile): ProfileSwitches {
  return profile === "rfc9309" ? RFC9309 : GOOGLE;
}
