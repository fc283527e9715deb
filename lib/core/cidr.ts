/**
 * IPv4 and IPv6 CIDR blocks as integer ranges, so that networks can be checked
 * for syntax, canonical form and overlap at synth time.
 */
export interface CidrBlock {
  readonly text: string;
  readonly family: 4 | 6;
  readonly prefixLength: number;
  readonly first: bigint;
  readonly last: bigint;
  /** The block written with its host bits cleared, e.g. `10.0.0.0/16` for `10.0.1.0/16`. */
  readonly canonical: string;
  /** Whether the address has bits set beyond the prefix (`10.0.1.0/16`). */
  readonly hostBitsSet: boolean;
}

export function parseIPv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

export function parseIPv6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (s: string): string[] | undefined => (s === '' ? [] : s.split(':'));
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (!head || !tail) return undefined;
  // An embedded IPv4 tail (::ffff:192.0.2.1) counts as two groups.
  const expand = (groups: string[]): string[] | undefined => {
    const last = groups[groups.length - 1];
    if (last === undefined || !last.includes('.')) return groups;
    const v4 = parseIPv4(last);
    if (v4 === undefined) return undefined;
    return [...groups.slice(0, -1), (v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16)];
  };
  const h = expand(head);
  const t = halves.length === 2 ? expand(tail) : [];
  if (!h || !t) return undefined;
  const missing = 8 - h.length - t.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...h, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...t];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
}

export function formatIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => ((value >> shift) & 255n).toString()).join('.');
}

export function formatIPv6(value: bigint): string {
  const groups = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((value >> shift) & 0xffffn).toString(16));
  // Compress the longest run of zero groups, as RFC 5952 asks.
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.length && j - i > 1) best = { start: i, length: j - i };
    i = j;
  }
  if (best.start < 0) return groups.join(':');
  return `${groups.slice(0, best.start).join(':')}::${groups.slice(best.start + best.length).join(':')}`;
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

export function cidrsOverlap(a: CidrBlock, b: CidrBlock): boolean {
  return a.family === b.family && a.first <= b.last && b.first <= a.last;
}
