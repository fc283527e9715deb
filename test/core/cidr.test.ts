import { cidrsOverlap, formatIPv4, formatIPv6, parseCidr, parseIPv4, parseIPv6 } from '../../lib';

function cidr(text: string) {
  const block = parseCidr(text);
  if (!block) throw new Error(`test setup: ${text} should parse`);
  return block;
}

describe('parseCidr', () => {
  test('parses an IPv4 block into its first and last address', () => {
    const block = cidr('10.132.0.0/14');
    expect(block.family).toBe(4);
    expect(block.prefixLength).toBe(14);
    expect(block.first).toBe(parseIPv4('10.132.0.0'));
    expect(block.last).toBe(parseIPv4('10.135.255.255'));
    expect(block.canonical).toBe('10.132.0.0/14');
    expect(block.hostBitsSet).toBe(false);
  });

  test('gives the same frozen block for the same text, and parses each text once', () => {
    const block = parseCidr('10.200.0.0/16');
    expect(parseCidr('10.200.0.0/16')).toBe(block);
    expect(Object.isFrozen(block)).toBe(true);
    expect(parseCidr('not a block')).toBeUndefined();
    expect(parseCidr('not a block')).toBeUndefined();
  });

  test('accepts /0 and /32', () => {
    expect(cidr('0.0.0.0/0').last).toBe(parseIPv4('255.255.255.255'));
    const host = cidr('192.0.2.7/32');
    expect(host.first).toBe(host.last);
  });

  test('parses an IPv6 block and writes it compressed in canonical form', () => {
    const block = cidr('FD01:0:0:0:0:0:0:0/48');
    expect(block.family).toBe(6);
    expect(block.canonical).toBe('fd01::/48');
    expect(block.last - block.first + 1n).toBe(1n << 80n);
  });

  test('reports host bits set and the canonical block', () => {
    const block = cidr('10.132.1.0/14');
    expect(block.hostBitsSet).toBe(true);
    expect(block.canonical).toBe('10.132.0.0/14');
    expect(cidr('fd02::1/112')).toMatchObject({ hostBitsSet: true, canonical: 'fd02::/112' });
  });

  test.each([
    '10.0.0.0/33',
    '300.1.1.1/8',
    '10.0.0/8',
    '10.0.0.01/8',
    '10.0.0.0',
    '10.0.0.0/08',
    'fd01::zz/48',
    'fd01::/129',
    '1::2::3/64',
    '1:2:3:4:5:6:7:8::/64',
    '10.0.0.1::/64',
    'fe80::/64%eth0',
    'fe80::%eth0/64',
    '',
  ])('rejects %j', (text) => {
    expect(parseCidr(text)).toBeUndefined();
  });
});

describe('IPv6 text', () => {
  test('parses compressed, full and IPv4-embedded forms to the same value', () => {
    expect(parseIPv6('::1')).toBe(1n);
    expect(parseIPv6('::')).toBe(0n);
    expect(parseIPv6('0:0:0:0:0:0:0:1')).toBe(1n);
    expect(parseIPv6('::ffff:192.0.2.1')).toBe((0xffffn << 32n) | parseIPv4('192.0.2.1')!);
    expect(parseIPv6('::FFFF:192.0.2.1')).toBe(parseIPv6('::ffff:192.0.2.1'));
  });

  test.each(['192.0.2.1::', '1:192.0.2.1::2', '::ffff:192.0.2.01', '::ffff:192.0.2', 'fe80::1%eth0', '::1/128', '[::1]', '::1 '])('rejects %j: an IPv4 tail only last, no zone, no prefix', (text) => {
    expect(parseIPv6(text)).toBeUndefined();
  });
});

describe('IPv4 text', () => {
  test.each(['10.1', '010.0.0.1', '10.0.0.01', '0x0a.0.0.1', '256.0.0.1', '10.0.0.1/32', ' 10.0.0.1'])('rejects %j: four decimal octets only', (text) => {
    expect(parseIPv4(text)).toBeUndefined();
  });

  test('reads and writes dotted quads', () => {
    expect(parseIPv4('255.255.255.255')).toBe(0xffffffffn);
    expect(formatIPv4(parseIPv4('10.132.0.7')!)).toBe('10.132.0.7');
  });

  test('compresses the longest run of zero groups, and not a single zero group (RFC 5952)', () => {
    expect(formatIPv6(parseIPv6('2001:db8:0:0:1:0:0:1')!)).toBe('2001:db8::1:0:0:1');
    expect(formatIPv6(parseIPv6('2001:db8:0:1:1:1:1:1')!)).toBe('2001:db8:0:1:1:1:1:1');
    expect(formatIPv6(parseIPv6('2001:0:0:1:0:0:0:1')!)).toBe('2001:0:0:1::1');
    expect(formatIPv6(0n)).toBe('::');
  });
});

describe('cidrsOverlap', () => {
  test('is true for nested and partly shared blocks', () => {
    expect(cidrsOverlap(cidr('10.0.0.0/16'), cidr('10.0.128.0/17'))).toBe(true);
    expect(cidrsOverlap(cidr('10.0.128.0/17'), cidr('10.0.0.0/8'))).toBe(true);
  });

  test('is false for adjacent blocks', () => {
    expect(cidrsOverlap(cidr('10.0.0.0/16'), cidr('10.1.0.0/16'))).toBe(false);
  });

  test('is false across address families', () => {
    expect(cidrsOverlap(cidr('0.0.0.0/0'), cidr('::/0'))).toBe(false);
  });
});
