import { parseCidr, parseIPv4, parseIPv6 } from '../core/cidr';
import { isDns1123Subdomain } from '../core/names';

/**
 * The OpenAPI `format`s the Kubernetes API server checks on CRD fields. Formats outside this list
 * (int32, int64, double, ...) only describe the type and are not validated, as in the API server.
 */
const FORMATS: Record<string, (value: string) => boolean> = {
  'byte': (value) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value),
  'date': (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)),
  'date-time': isDateTime,
  'datetime': isDateTime,
  'duration': (value) => /^(\d+(\.\d+)?\s*(ns|us|µs|ms|s|m|h|d|w)\s*)+$/.test(value),
  'email': (value) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value),
  'hostname': (value) => value.length <= 255 && isDns1123Subdomain(value.toLowerCase()),
  'ipv4': (value) => parseIPv4(value) !== undefined,
  'ipv6': (value) => value.includes(':') && parseIPv6(value) !== undefined,
  'cidr': (value) => parseCidr(value) !== undefined,
  'mac': (value) => /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/.test(value) || /^([0-9A-Fa-f]{2}[:-]){19}[0-9A-Fa-f]{2}$/.test(value),
  'uuid': (value) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(value),
  'uri': isRequestUri,
  'hexcolor': (value) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value),
};

/** True when `value` satisfies `format`, or when the API server does not check `format`. */
export function satisfiesFormat(format: string, value: string): boolean {
  const check = FORMATS[format];
  return check ? check(value) : true;
}

export function isCheckedFormat(format: string): boolean {
  return format in FORMATS;
}

function isDateTime(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value));
}

/** Go's url.ParseRequestURI: an absolute URI or an absolute path, no spaces or control characters. */
export function isRequestUri(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what Go's parser refuses
  if (/[\s\x00-\x1f\x7f]/.test(value)) return false;
  if (value.startsWith('/')) return true;
  return /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(value);
}
