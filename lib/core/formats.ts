import { parseIPv4, parseIPv6 } from './cidr';
import { isDns1123Subdomain } from './names';

/** An IAM role ARN: `arn:<partition>:iam::<12-digit account>:role/<path/name>`. */
export const IAM_ROLE_ARN = /^arn:aws(-[a-z]+)*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;
export const IAM_ROLE_ARN_RULE = 'must be an IAM role ARN such as arn:aws:iam::123456789012:role/name';

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
