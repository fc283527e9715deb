import { Environment, Optional } from '@marcbachmann/cel-js';
import { formatIPv4, formatIPv6, parseCidr, parseIPv4, parseIPv6 } from '../../core/cidr';
import { isDns1123Label, isDns1123Subdomain, isLabelValue, isQualifiedName } from '../../core/names';
import { isRequestUri, satisfiesFormat } from '../kubernetes-formats';
import { re2Find, re2FindAll } from '../re2';
import { Quantity } from './quantity';

/**
 * The Kubernetes CEL libraries (k8s.io/apiserver/pkg/cel/library) on top of the CEL standard
 * library that @marcbachmann/cel-js provides: regex `find`/`findAll`, URLs, IPs and CIDRs, named
 * formats, quantities and the list helpers. `matches` is replaced so that it uses RE2 semantics.
 */
export function registerKubernetesLibrary(env: Environment): void {
  registerRegex(env);
  registerUrls(env);
  registerNetworks(env);
  registerFormats(env);
  registerQuantities(env);
  registerLists(env);
}

function fail(message: string): never {
  throw new Error(message);
}

function registerRegex(env: Environment): void {
  env.registerFunction('string.find(string): string', (s: string, pattern: string) => re2Find(pattern, s));
  env.registerFunction('string.findAll(string): list<string>', (s: string, pattern: string) => re2FindAll(pattern, s));
  env.registerFunction('string.findAll(string, int): list<string>', (s: string, pattern: string, limit: bigint) => re2FindAll(pattern, s, Number(limit)));
}

/** A parsed URL with Go's url.URL semantics: Host keeps the port and IPv6 brackets. */
class KubernetesUrl {
  constructor(
    readonly scheme: string,
    readonly host: string,
    readonly escapedPath: string,
    readonly rawQuery: string,
  ) {}

  static parse(text: string): KubernetesUrl | undefined {
    if (!isRequestUri(text)) return undefined;
    const match = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?/.exec(text);
    if (!match) return undefined;
    const host = (match[2] ?? '').replace(/^[^@]*@/, '');
    const hostPattern = host.startsWith('[') ? /^\[[0-9A-Fa-f:.]+\](:\d*)?$/ : /^[^:[\]]*(:\d*)?$/;
    if (!hostPattern.test(host)) return undefined;
    return new KubernetesUrl(match[1] ?? '', host, match[3], match[4] ?? '');
  }

  get hostname(): string {
    if (this.host.startsWith('[')) return this.host.slice(1, this.host.indexOf(']'));
    return this.host.replace(/:\d*$/, '');
  }

  get port(): string {
    const match = /:(\d*)$/.exec(this.host.startsWith('[') ? this.host.slice(this.host.indexOf(']')) : this.host);
    return match ? match[1] : '';
  }

  get query(): Map<string, string[]> {
    const query = new Map<string, string[]>();
    if (!this.rawQuery) return query;
    for (const pair of this.rawQuery.split('&')) {
      if (!pair) continue;
      const [key, value = ''] = pair.split('=', 2).map((s) => decodeURIComponent(s.replace(/\+/g, ' ')));
      query.set(key, [...(query.get(key) ?? []), value]);
    }
    return query;
  }
}

function registerUrls(env: Environment): void {
  env.registerType('kubernetes.URL', KubernetesUrl);
  env.registerFunction('isURL(string): bool', (s: string) => KubernetesUrl.parse(s) !== undefined);
  env.registerFunction('url(string): kubernetes.URL', (s: string) => KubernetesUrl.parse(s) ?? fail(`URL parse error during conversion from string: ${s}`));
  env.registerFunction('kubernetes.URL.getScheme(): string', (u: KubernetesUrl) => u.scheme);
  env.registerFunction('kubernetes.URL.getHost(): string', (u: KubernetesUrl) => u.host);
  env.registerFunction('kubernetes.URL.getHostname(): string', (u: KubernetesUrl) => u.hostname);
  env.registerFunction('kubernetes.URL.getPort(): string', (u: KubernetesUrl) => u.port);
  env.registerFunction('kubernetes.URL.getEscapedPath(): string', (u: KubernetesUrl) => u.escapedPath);
  env.registerFunction('kubernetes.URL.getQuery(): map<string, list<string>>', (u: KubernetesUrl) => u.query);
}

/** An IP address as Go's netip.Addr: IPv4-mapped IPv6 and zones are rejected, as in Kubernetes. */
class KubernetesIp {
  constructor(
    readonly family: 4 | 6,
    readonly value: bigint,
  ) {}

  static parse(text: string): KubernetesIp | undefined {
    if (text.includes('%')) return undefined;
    const v4 = parseIPv4(text);
    if (v4 !== undefined) return new KubernetesIp(4, v4);
    const v6 = text.includes(':') ? parseIPv6(text) : undefined;
    if (v6 === undefined || v6 >> 32n === 0xffffn) return undefined;
    return new KubernetesIp(6, v6);
  }

  toString(): string {
    return this.family === 4 ? formatIPv4(this.value) : formatIPv6(this.value);
  }
}

class KubernetesCidr {
  constructor(
    readonly ip: KubernetesIp,
    readonly prefixLength: number,
  ) {}

  static parse(text: string): KubernetesCidr | undefined {
    const block = parseCidr(text);
    const ip = block && KubernetesIp.parse(text.split('/')[0]);
    return ip ? new KubernetesCidr(ip, block.prefixLength) : undefined;
  }

  get bits(): bigint {
    return BigInt((this.ip.family === 4 ? 32 : 128) - this.prefixLength);
  }

  masked(): KubernetesCidr {
    return new KubernetesCidr(new KubernetesIp(this.ip.family, (this.ip.value >> this.bits) << this.bits), this.prefixLength);
  }

  contains(ip: KubernetesIp): boolean {
    return ip.family === this.ip.family && ip.value >> this.bits === this.ip.value >> this.bits;
  }

  toString(): string {
    return `${this.ip.toString()}/${this.prefixLength}`;
  }
}

function registerNetworks(env: Environment): void {
  env.registerType('net.IP', KubernetesIp);
  env.registerType('net.CIDR', KubernetesCidr);
  env.registerFunction('isIP(string): bool', (s: string) => KubernetesIp.parse(s) !== undefined);
  env.registerFunction('ip(string): net.IP', (s: string) => KubernetesIp.parse(s) ?? fail(`IP Address ${JSON.stringify(s)} parse error during conversion from string`));
  env.registerFunction('net.IP.family(): int', (ip: KubernetesIp) => BigInt(ip.family));
  env.registerFunction('net.IP.isUnspecified(): bool', (ip: KubernetesIp) => ip.value === 0n);
  env.registerFunction('net.IP.isLoopback(): bool', (ip: KubernetesIp) => (ip.family === 4 ? ip.value >> 24n === 127n : ip.value === 1n));
  env.registerFunction('string(net.IP): string', (ip: KubernetesIp) => ip.toString());
  env.registerFunction('isCIDR(string): bool', (s: string) => KubernetesCidr.parse(s) !== undefined);
  env.registerFunction('cidr(string): net.CIDR', (s: string) => KubernetesCidr.parse(s) ?? fail(`network address parse error during conversion from string: ${s}`));
  env.registerFunction('net.CIDR.ip(): net.IP', (c: KubernetesCidr) => c.ip);
  env.registerFunction('net.CIDR.prefixLength(): int', (c: KubernetesCidr) => BigInt(c.prefixLength));
  env.registerFunction('net.CIDR.masked(): net.CIDR', (c: KubernetesCidr) => c.masked());
  env.registerFunction('net.CIDR.containsIP(string): bool', (c: KubernetesCidr, s: string) => c.contains(KubernetesIp.parse(s) ?? fail(`IP Address ${JSON.stringify(s)} parse error`)));
  env.registerFunction('net.CIDR.containsIP(net.IP): bool', (c: KubernetesCidr, ip: KubernetesIp) => c.contains(ip));
  env.registerFunction('net.CIDR.containsCIDR(string): bool', (c: KubernetesCidr, s: string) => {
    const other = KubernetesCidr.parse(s) ?? fail(`network address parse error: ${s}`);
    return other.prefixLength >= c.prefixLength && c.contains(other.ip);
  });
  env.registerFunction('string(net.CIDR): string', (c: KubernetesCidr) => c.toString());
}

/** `format.<name>().validate(value)`: optional.none() when valid, else the list of errors. */
class NamedFormat {
  constructor(
    readonly name: string,
    readonly check: (value: string) => boolean,
    readonly rule: string,
  ) {}
}

const NAMED_FORMATS: NamedFormat[] = [
  new NamedFormat('dns1123Label', isDns1123Label, 'a lowercase RFC 1123 label'),
  new NamedFormat('dns1123Subdomain', isDns1123Subdomain, 'a lowercase RFC 1123 subdomain'),
  new NamedFormat('dns1035Label', (v) => /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/.test(v), 'a DNS-1035 label'),
  new NamedFormat('qualifiedName', isQualifiedName, 'a valid qualified name'),
  new NamedFormat('labelValue', isLabelValue, 'a valid label value'),
  new NamedFormat('dns1123LabelPrefix', (v) => isDns1123Label(v.replace(/-$/, 'a')), 'a lowercase RFC 1123 label prefix'),
  new NamedFormat('dns1123SubdomainPrefix', (v) => isDns1123Subdomain(v.replace(/[-.]$/, 'a')), 'a lowercase RFC 1123 subdomain prefix'),
  new NamedFormat('dns1035LabelPrefix', (v) => /^[a-z]([-a-z0-9]{0,62})?$/.test(v), 'a DNS-1035 label prefix'),
  new NamedFormat('uri', isRequestUri, 'a valid URI'),
  new NamedFormat('uuid', (v) => satisfiesFormat('uuid', v), 'a valid UUID'),
  new NamedFormat('byte', (v) => satisfiesFormat('byte', v), 'valid base64'),
  new NamedFormat('date', (v) => satisfiesFormat('date', v), 'a valid date'),
  new NamedFormat('datetime', (v) => satisfiesFormat('date-time', v), 'a valid RFC 3339 date-time'),
];

class FormatNamespace {}

function registerFormats(env: Environment): void {
  env.registerType('kubernetes.NamedFormat', NamedFormat);
  env.registerType('kubernetes.FormatNamespace', FormatNamespace);
  env.registerConstant('format', 'kubernetes.FormatNamespace', new FormatNamespace());
  for (const named of NAMED_FORMATS) {
    env.registerFunction(`kubernetes.FormatNamespace.${named.name}(): kubernetes.NamedFormat`, () => named);
  }
  env.registerFunction('kubernetes.FormatNamespace.named(string): optional<kubernetes.NamedFormat>', (_: FormatNamespace, name: string) => Optional.of(NAMED_FORMATS.find((f) => f.name === name)));
  env.registerFunction('kubernetes.NamedFormat.validate(string): optional<list<string>>', (f: NamedFormat, value: string) => (f.check(value) ? Optional.none() : Optional.of([`must be ${f.rule}`])));
}

function registerQuantities(env: Environment): void {
  env.registerType('kubernetes.Quantity', Quantity);
  env.registerFunction('isQuantity(string): bool', (s: string) => Quantity.parse(s) !== undefined);
  env.registerFunction('quantity(string): kubernetes.Quantity', (s: string) => Quantity.parse(s) ?? fail(`quantities must match the regular expression: ${s}`));
  env.registerFunction('kubernetes.Quantity.sign(): int', (q: Quantity) => BigInt(q.sign()));
  env.registerFunction('kubernetes.Quantity.isInteger(): bool', (q: Quantity) => q.isInteger());
  env.registerFunction('kubernetes.Quantity.asInteger(): int', (q: Quantity) => q.asInteger() ?? fail('cannot convert value to integer'));
  env.registerFunction('kubernetes.Quantity.asApproximateFloat(): double', (q: Quantity) => q.asApproximateFloat());
  env.registerFunction('kubernetes.Quantity.compareTo(kubernetes.Quantity): int', (a: Quantity, b: Quantity) => BigInt(a.compareTo(b)));
  env.registerFunction('kubernetes.Quantity.isGreaterThan(kubernetes.Quantity): bool', (a: Quantity, b: Quantity) => a.compareTo(b) > 0);
  env.registerFunction('kubernetes.Quantity.isLessThan(kubernetes.Quantity): bool', (a: Quantity, b: Quantity) => a.compareTo(b) < 0);
  env.registerFunction('kubernetes.Quantity.add(kubernetes.Quantity): kubernetes.Quantity', (a: Quantity, b: Quantity) => a.add(b));
  env.registerFunction('kubernetes.Quantity.add(int): kubernetes.Quantity', (a: Quantity, b: bigint) => a.add(Quantity.ofInteger(b)));
  env.registerFunction('kubernetes.Quantity.sub(kubernetes.Quantity): kubernetes.Quantity', (a: Quantity, b: Quantity) => a.add(b.negate()));
  env.registerFunction('kubernetes.Quantity.sub(int): kubernetes.Quantity', (a: Quantity, b: bigint) => a.add(Quantity.ofInteger(-b)));
}

function registerLists(env: Environment): void {
  const compare = (a: unknown, b: unknown): number => (a! < b! ? -1 : a! > b! ? 1 : 0);
  env.registerFunction('list<A>.isSorted(): bool', (l: unknown[]) => l.every((v, i) => i === 0 || compare(l[i - 1], v) <= 0));
  env.registerFunction('list<int>.sum(): int', (l: bigint[]) => l.reduce((a, b) => a + b, 0n));
  env.registerFunction('list<double>.sum(): double', (l: number[]) => l.reduce((a, b) => a + b, 0));
  env.registerFunction('list<A>.min(): A', (l: unknown[]) => (l.length ? l.reduce((a, b) => (compare(a, b) <= 0 ? a : b)) : fail('min called on empty list')));
  env.registerFunction('list<A>.max(): A', (l: unknown[]) => (l.length ? l.reduce((a, b) => (compare(a, b) >= 0 ? a : b)) : fail('max called on empty list')));
  env.registerFunction('list<A>.indexOf(A): int', (l: unknown[], v: unknown) => BigInt(l.indexOf(v)));
  env.registerFunction('list<A>.lastIndexOf(A): int', (l: unknown[], v: unknown) => BigInt(l.lastIndexOf(v)));
}
