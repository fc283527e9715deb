import { Address4, Address6 } from 'ip-address';

/**
 * IPv4 and IPv6 CIDR blocks as integer ranges, so that networks can be checked
 * for syntax, canonical form and overlap at synth time.
 */
export interface CidrBlock {
  /** The block as written. */
  readonly text: string;
  /** The address family. */
  readonly family: 4 | 6;
  /** The prefix length. */
  readonly prefixLength: number;
  /** The first address of the block, as a number. */
  readonly first: bigint;
  /** The last address of the block, as a number. */
  readonly last: bigint;
  /** The block written with its host bits cleared, e.g. `10.0.0.0/16` for `10.0.1.0/16`. */
  readonly canonical: string;
  /** Whether the address has bits set beyond the prefix (`10.0.1.0/16`). */
  readonly hostBitsSet: boolean;
}

/** A dotted-quad address as a number; undefined unless it is four decimal octets without leading zeros. */
export function parseIPv4(text: string): bigint | undefined {
  // Address4 also reads `a.b.c.d/n`; here only a bare address will do.
  if (text.includes('/')) return undefined;
  try {
    return new Address4(text).bigInt();
  } catch {
    return undefined;
  }
}

/** An IPv6 address as a number, in any RFC 4291 text form (compressed, full, IPv4 tail). */
export function parseIPv6(text: string): bigint | undefined {
  // Address6 also reads a `/n` suffix and a `%zone`; neither a CIDR block nor Kubernetes takes a zone.
  if (/[/%]/.test(text)) return undefined;
  try {
    return new Address6(text).bigInt();
  } catch {
    return undefined;
  }
}

/** An IPv4 address, from its number, in dotted form. */
export function formatIPv4(value: bigint): string {
  return Address4.fromBigInt(value).correctForm();
}

/** RFC 5952 text: lowercase, no leading zeros, the longest run of two or more zero groups as `::`. */
export function formatIPv6(value: bigint): string {
  return Address6.fromBigInt(value).correctForm();
}

/**
 * Blocks parsed before, by text: a fleet names the same few pod and service networks in every
 * cluster, and several checks parse them again. Bounded, so a long-lived process stays small.
 */
const parsedCidrs = new Map<string, CidrBlock | undefined>();
const PARSED_CIDRS_MAX = 10_000;

/** Parses `a.b.c.d/n` or `x:y::z/n`; undefined when it is not a CIDR block. */
export function parseCidr(text: string): CidrBlock | undefined {
  if (parsedCidrs.has(text)) return parsedCidrs.get(text);
  const block = parseCidrText(text);
  if (parsedCidrs.size >= PARSED_CIDRS_MAX) parsedCidrs.clear();
  parsedCidrs.set(text, block);
  return block;
}

function parseCidrText(text: string): CidrBlock | undefined {
  const match = /^([^/]+)\/(0|[1-9][0-9]{0,2})$/.exec(text);
  if (!match) return undefined;
  const family: 4 | 6 = match[1].includes(':') ? 6 : 4;
  const address = family === 4 ? parseIPv4(match[1]) : parseIPv6(match[1]);
  const prefixLength = Number(match[2]);
  const bits = family === 4 ? 32 : 128;
  if (address === undefined || prefixLength > bits) return undefined;
  const hostBits = BigInt(bits - prefixLength);
  const first = (address >> hostBits) << hostBits;
  const last = first + (1n << hostBits) - 1n;
  const canonical = `${family === 4 ? formatIPv4(first) : formatIPv6(first)}/${prefixLength}`;
  // Frozen: parseCidr hands the same block to every caller.
  return Object.freeze({ text, family, prefixLength, first, last, canonical, hostBitsSet: address !== first });
}

/** Whether two blocks of one family share an address. */
export function cidrsOverlap(a: CidrBlock, b: CidrBlock): boolean {
  return a.family === b.family && a.first <= b.last && b.first <= a.last;
}
