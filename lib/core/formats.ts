import { parseIPv4, parseIPv6 } from './cidr';
import { isDns1123Subdomain } from './names';
import { show } from './problems';

/** An IAM role ARN: `arn:<partition>:iam::<12-digit account>:role/<path/name>`. */
export const IAM_ROLE_ARN = /^arn:aws(-[a-z]+)*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;
export const IAM_ROLE_ARN_RULE = 'must be an IAM role ARN such as arn:aws:iam::123456789012:role/name';

/** An AWS region: us-east-1, eu-central-2, us-gov-west-1. */
export const AWS_REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

/** Whether `zone` is an Availability Zone (us-east-1a) or a Local Zone (us-east-1-bos-1a) of `region`. */
export function isAwsZoneOf(zone: string, region: string): boolean {
  return zone.startsWith(region) && /^(-[a-z0-9]+)*[a-z]$/.test(zone.slice(region.length));
}

/** A registry as images name it: `host[:port]`, e.g. registry.example.com:5000. */
export const REGISTRY_HOST = /^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?(:\d+)?$/;
export const REGISTRY_HOST_RULE = 'must be host[:port] of the mirror registry';

/** An EC2 instance type: family (and generation, options) and size, e.g. m5.large, u-6tb1.metal, m7g.2xlarge. */
export const EC2_INSTANCE_TYPE = /^[a-z][a-z0-9-]*\.[a-z0-9-]+$/;
export const EC2_INSTANCE_TYPE_RULE = 'must be an EC2 instance type such as m5.large: family and size, lower case, separated by "."';

/** An IPv4 or IPv6 address, without prefix. */
export function isIpAddress(value: unknown): boolean {
  return typeof value === 'string' && (parseIPv4(value) !== undefined || (value.includes(':') && parseIPv6(value) !== undefined));
}

/** A host name (DNS-1123 subdomain, any case) or an IP address: what an NTP or DNS server entry names. */
export function isHostOrAddress(value: unknown): boolean {
  return typeof value === 'string' && (isIpAddress(value) || isDns1123Subdomain(value.toLowerCase()));
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const RFC3339_RULE = 'must be an RFC 3339 time such as 2026-01-01T00:00:00Z';

/** An RFC 3339 time such as `2026-01-01T00:00:00Z` or `2026-01-01T08:00:00.5+02:00`, of a day and hour that exist. */
export function isRfc3339(value: unknown): value is string {
  return typeof value === 'string' && RFC3339.test(value) && !Number.isNaN(Date.parse(value));
}

/** `2026-05-01T10:00:00Z`: a time in UTC to the second, as rollout state files and reports write it. */
export function rfc3339Seconds(time: Date): string {
  return `${time.toISOString().slice(0, 19)}Z`;
}

/**
 * A time given as a Date or an RFC 3339 string, as the text to write: a Date in UTC to the second
 * (`2026-01-01T00:00:00Z`, milliseconds only when it has some), so the same Date always writes the
 * same text; a string as given. `problem` names `field` when the time is not one.
 */
export function rfc3339Text(field: string, time: Date | string): { readonly text?: string; readonly problem?: string } {
  if (time instanceof Date) {
    if (Number.isNaN(time.getTime())) return { problem: `${field} (Invalid Date) must be a valid Date or an RFC 3339 time such as 2026-01-01T00:00:00Z` };
    return { text: time.toISOString().replace('.000Z', 'Z') };
  }
  return isRfc3339(time) ? { text: time } : { problem: `${field} (${show(time)}) ${RFC3339_RULE}` };
}

/** One PEM certificate block. */
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/**
 * Why `value` is not a CA bundle (PEM text of one or more certificates), or undefined. A certificate
 * is public and may be written to the output; a private key never is, so text holding one is refused.
 */
export function caBundleProblem(field: string, value: unknown): string | undefined {
  if (typeof value === 'string' && /PRIVATE KEY-----/.test(value)) return `${field} (PEM text) holds a private key; give the CA's certificates only, a key must never be in the output`;
  if (typeof value === 'string' && PEM_CERTIFICATE.test(value)) return undefined;
  return `${field} (${typeof value === 'string' ? show(value.slice(0, 40)) : show(value)}) must be PEM text with at least one "-----BEGIN CERTIFICATE-----" block`;
}
