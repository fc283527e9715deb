import { parseCidr, parseIPv4, parseIPv6 } from '../core/cidr';
import { isIpAddress } from '../core/formats';
import type { Problems } from '../core/problems';
import { show } from '../core/problems';

/** A static address an nmstate config gives an interface. */
export interface NMStateAddress {
  /** The interface's name in the nmstate config. */
  readonly interface: string;
  /** The address, as written. */
  readonly ip: string;
  /** The address family. */
  readonly family: 4 | 6;
  /** The address as a number, for overlap checks. */
  readonly value: bigint;
}

/**
 * Checks the addresses of an nmstate document that nmstate and the assisted installer act on (an
 * interface's static `ip` and `prefix-length`, routes' `destination` and `next-hop-address`, DNS
 * servers) and returns the interfaces' static addresses. A malformed one would only fail on the
 * host, after the discovery image boots. Problems are recorded under `config.`.
 */
export function checkNMStateAddresses(config: Record<string, unknown>, problems: Problems): NMStateAddress[] {
  const addresses: NMStateAddress[] = [];
  const interfaces = Array.isArray(config.interfaces) ? (config.interfaces as (Record<string, unknown> | undefined)[]) : [];
  interfaces.forEach((nic, i) => {
    for (const family of [4, 6] as const) {
      const block = nic?.[`ipv${family}`] as { address?: unknown } | undefined;
      if (!Array.isArray(block?.address)) continue;
      (block.address as (Record<string, unknown> | undefined)[]).forEach((entry, j) => {
        const field = `interfaces[${i}].ipv${family}.address[${j}]`;
        const ip = entry?.ip;
        const value = typeof ip === 'string' ? (family === 4 ? parseIPv4(ip) : parseIPv6(ip)) : undefined;
        if (value === undefined) problems.require(false, `${field}.ip`, ip, `must be an IPv${family} address`);
        else addresses.push({ interface: String(nic?.name), ip: ip as string, family, value });
        const prefix = entry?.['prefix-length'];
        const bits = family === 4 ? 32 : 128;
        if (!(typeof prefix === 'number' && Number.isInteger(prefix) && prefix >= 0 && prefix <= bits)) {
          problems.require(false, `${field}.prefix-length`, prefix, `must be a whole number from 0 to ${bits}`);
        }
      });
    }
  });
  const routes = (config.routes as { config?: unknown } | undefined)?.config;
  if (Array.isArray(routes)) {
    routes.forEach((route: Record<string, unknown>, i: number) => {
      if (route?.destination !== undefined && !(typeof route.destination === 'string' && parseCidr(route.destination))) {
        problems.require(false, `routes.config[${i}].destination`, route.destination, 'must be a CIDR block such as 0.0.0.0/0');
      }
      if (route?.['next-hop-address'] !== undefined && !isIpAddress(route['next-hop-address'])) {
        problems.require(false, `routes.config[${i}].next-hop-address`, route['next-hop-address'], 'must be an IP address');
      }
    });
  }
  const servers = (config['dns-resolver'] as { config?: { server?: unknown } } | undefined)?.config?.server;
  if (Array.isArray(servers)) {
    servers.forEach((server, i) => {
      if (!isIpAddress(server)) problems.add(`dns-resolver.config.server[${i}] (${show(server)}) must be an IP address`);
    });
  }
  return addresses;
}
