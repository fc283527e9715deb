import { parseIPv4, parseIPv6 } from '../core/cidr';
import { isDns1123Subdomain } from '../core/names';

/**
 * The BMC drivers baremetal-operator understands, by URL scheme. Each may also be written with
 * `+http` or `+https` where the driver speaks HTTP (redfish, idrac).
 */
export const BMC_SCHEMES: readonly string[] = [
  'ipmi', 'libvirt',
  'redfish', 'redfish+http', 'redfish+https',
  'redfish-virtualmedia', 'redfish-virtualmedia+http', 'redfish-virtualmedia+https',
  'redfish-uefihttp', 'redfish-uefihttp+http', 'redfish-uefihttp+https',
  'idrac', 'idrac+http', 'idrac+https',
  'idrac-redfish', 'idrac-redfish+http', 'idrac-redfish+https',
  'idrac-virtualmedia', 'idrac-virtualmedia+http', 'idrac-virtualmedia+https',
  'ilo4', 'ilo4-virtualmedia', 'ilo5', 'ilo5-redfish', 'ilo5-virtualmedia',
  'irmc', 'irmc-virtualmedia',
];

export interface BmcAddress {
  readonly scheme: string;
  /** Host name or IP address, without IPv6 brackets. */
  readonly host: string;
  readonly port?: number;
  readonly path: string;
  /** `host[:port]` lower-cased plus the path: two hosts with the same key share one BMC endpoint. */
  readonly key: string;
}

/** Parses `scheme://host[:port][/path]`; returns the reason when it is not a usable BMC address. */
export function parseBmcAddress(text: string): BmcAddress | string {
  const match = /^([a-z0-9+-]+):\/\/(\[[^\]]*\]|[^/:]*)(?::(\d+))?(\/.*)?$/i.exec(text);
  if (!match) {
    return /^[a-z0-9+-]+:\/\//i.test(text)
      ? 'must be scheme://host[:port][/path], with an IPv6 host in brackets ([fd00::1])'
      : `must start with a driver scheme (${BMC_SCHEMES.slice(0, 6).join(', ')}, ...), e.g. redfish-virtualmedia://192.0.2.10/redfish/v1/Systems/1`;
  }
  const [, schemeText, hostText, portText, path = ''] = match;
  const scheme = schemeText.toLowerCase();
  if (!BMC_SCHEMES.includes(scheme)) return `uses scheme "${schemeText}", which baremetal-operator does not know; use one of ${BMC_SCHEMES.join(', ')}`;
  let host = hostText;
  if (host.startsWith('[')) {
    host = host.slice(1, -1);
    if (parseIPv6(host) === undefined) return `has "[${host}]" as host, which is no IPv6 address`;
  } else if (host.includes(':')) {
    return 'has an IPv6 host without brackets; write it as [address]';
  } else if (parseIPv4(host) === undefined && !isDns1123Subdomain(host.toLowerCase())) {
    return `has "${host}" as host, which is neither an IP address nor a DNS name`;
  }
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65535)) return `has port ${port}, outside 1-65535`;
  const hostPort = `${host.toLowerCase()}${port === undefined ? '' : `:${port}`}`;
  return { scheme, host, port, path, key: `${hostPort}${path}` };
}
