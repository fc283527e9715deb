/** Kubernetes naming rules (k8s.io/apimachinery/pkg/util/validation). */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;

export function isDns1123Label(value: string): boolean {
  return value.length <= DNS1123_LABEL_MAX && DNS1123_LABEL.test(value);
}

export function isDns1123Subdomain(value: string): boolean {
  return value.length <= DNS1123_SUBDOMAIN_MAX && DNS1123_SUBDOMAIN.test(value);
}

/** A label or annotation key: an optional DNS subdomain prefix and a name of at most 63 characters. */
export function isQualifiedName(key: string): boolean {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && !isDns1123Subdomain(prefix)) return false;
  return name.length <= 63 && LABEL_NAME.test(name);
}

export function isLabelValue(value: string): boolean {
  return value.length <= 63 && LABEL_VALUE.test(value);
}

export const DNS1123_LABEL_RULE = 'must be a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit';
export const DNS1123_SUBDOMAIN_RULE = 'must be a DNS-1123 subdomain: dot-separated DNS-1123 labels, at most 253 characters';
