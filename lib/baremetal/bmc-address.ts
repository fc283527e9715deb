import { formatIPv6, parseIPv4, parseIPv6 } from '../core/cidr';
import { isDns1123Subdomain } from '../core/names';

/**
 * The BMC drivers baremetal-operator understands, by URL scheme. Each may also be written with
 * `+http` or `+https` where the driver speaks HTTP (redfish, idrac).
 */
export const BMC_SCHEMES: readonly string[] = [
  'ipmi',
  'libvirt',
  'redfish',
  'redfish+http',
  'redfish+https',
  'redfish-virtualmedia',
  'redfish-virtualmedia+http',
  'redfish-virtualmedia+https',
  'redfish-uefihttp',
  'redfish-uefihttp+http',
  'redfish-uefihttp+https',
  'idrac',
  'idrac+http',
  'idrac+https',
  'idrac-redfish',
  'idrac-redfish+http',
  'idrac-redfish+https',
  'idrac-virtualmedia',
  'idrac-virtualmedia+http',
  'idrac-virtualmedia+https',
  'ilo4',
  'ilo4-virtualmedia',
  'ilo5',
  'ilo5-redfish',
  'ilo5-virtualmedia',
  'irmc',
  'irmc-virtualmedia',
];

/** A BMC address taken apart, as baremetal-operator reads it. */
export interface BmcAddress {
  /** The scheme: `ipmi`, `redfish-virtualmedia`, ... */
  readonly scheme: string;
  /** Host name (lower case), IPv4 address, or IPv6 address in brackets and normalised. */
  readonly host: string;
  /** The port, when the address gives one. */
  readonly port?: number;
  /** The path, as written. */
  readonly path: string;
  /** `host[:port]` normalised plus the path as written: two hosts with the same key share one BMC endpoint. */
  readonly key: string;
}

/** Parses `scheme://host[:port][/path]`; returns the reason when it is not a usable BMC address. */
export function parseBmcAddress(text: string): BmcAddress | string {
  const match = /^([a-z0-9+-]+):\/\/([^/]*)(\/.*)?$/i.exec(text);
  if (!match) {
    return `must start with a driver scheme (${BMC_SCHEMES.slice(0, 6).join(', ')}, ...), e.g. redfish-virtualmedia://192.0.2.10/redfish/v1/Systems/1`;
  }
  const [, schemeText, hostPort, path = ''] = match;
  const scheme = schemeText.toLowerCase();
  if (!BMC_SCHEMES.includes(scheme)) return `uses scheme "${schemeText}", which baremetal-operator does not know; use one of ${BMC_SCHEMES.join(', ')}`;
  const bracketed = /^\[([^\]]*)\](?::(\d+))?$/.exec(hostPort);
  const plain = /^([^:[\]]*)(?::(\d+))?$/.exec(hostPort);
  let host: string;
  let portText: string | undefined;
  if (bracketed) {
    [, host, portText] = bracketed;
    const value = parseIPv6(host);
    if (value === undefined) return `has "[${host}]" as host, which is no IPv6 address (brackets are for IPv6 only)`;
    // Normalised, so that [FD00::1] and [fd00:0::1] are one endpoint.
    host = `[${formatIPv6(value)}]`;
  } else if (plain) {
    [, host, portText] = plain;
    if (host === '') return 'has no host';
    if (parseIPv4(host) === undefined && !isDns1123Subdomain(host.toLowerCase())) return `has "${host}" as host, which is neither an IP address nor a DNS name`;
    host = host.toLowerCase();
  } else {
    return (hostPort.match(/:/g) ?? []).length > 1 ? 'has an IPv6 host without brackets; write it as [address]' : 'must be scheme://host[:port][/path], with an IPv6 host in brackets ([fd00::1])';
  }
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65535)) return `has port ${port}, outside 1-65535`;
  return { scheme, host, port, path, key: `${host}${port === undefined ? '' : `:${port}`}${path}` };
}
