import { HIDDEN_SECRET_VALUE, isSecretField, isSecretObject, redactSecrets } from '../core/redaction';
import { isPlainObject } from '../core/runtime-props';

/** One field that differs between two versions of an object. */
export interface FieldChange {
  /**
   * The field, as `kubectl explain` and the API server's messages write it: `spec.release.image`,
   * `metadata.labels["app.kubernetes.io/name"]`, `spec.services[0].servicePublishingStrategy`.
   * List items that carry a `name` are addressed by it: `spec.containers[name=manager].image`.
   */
  readonly path: string;
  /** The value before; absent when the field is new. */
  readonly before?: unknown;
  /** The value after; absent when the field is removed. */
  readonly after?: unknown;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * The fields in which `after` differs from `before`, leaf by leaf, in the order of the objects'
 * keys. A list whose items all have distinct names is compared item by item by name (a list
 * reordered is unchanged in meaning only when the API treats it as a map; hcp-cdk writes such
 * lists in a fixed order, so an order change is reported as the changes it makes).
 */
export function diffFields(before: unknown, after: unknown, at = ''): FieldChange[] {
  const changes: FieldChange[] = [];
  collect(before, after, at, changes, false);
  return changes;
}

/**
 * Adds the changes between `before` and `after` at `at`. `secret` says the values are a Secret's
 * (see `isSecretField`): they are reported as HIDDEN_SECRET_VALUE; any other value goes through
 * `redactSecrets`, so a Secret carried whole in a list (an ACM Policy's templates) is hidden too.
 */
function collect(before: unknown, after: unknown, at: string, changes: FieldChange[], secret: boolean): void {
  // The API server reads a field set to null as a field not set.
  if (before === null) before = undefined;
  if (after === null) after = undefined;
  if (before === after) return;
  // A mapping added or removed whole is reported leaf by leaf too: `metadata.labels.tier`, not `metadata.labels`.
  const beforeMap = isPlainObject(before) ? before : before === undefined && isPlainObject(after) ? {} : undefined;
  const afterMap = isPlainObject(after) ? after : after === undefined && isPlainObject(before) ? {} : undefined;
  if (beforeMap && afterMap && Object.keys(beforeMap).length + Object.keys(afterMap).length > 0) {
    // A Secret, wherever it is carried: its fields but its identity hold secret material.
    const isSecret = isSecretObject(before) || isSecretObject(after);
    const inSecret = (key: string): boolean => secret || (isSecret && isSecretField([key]));
    for (const key of Object.keys(beforeMap)) collect(beforeMap[key], key in afterMap ? afterMap[key] : undefined, child(at, key), changes, inSecret(key));
    for (const key of Object.keys(afterMap)) if (!(key in beforeMap)) collect(undefined, afterMap[key], child(at, key), changes, inSecret(key));
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const beforeNames = itemNames(before);
    const afterNames = itemNames(after);
    if (beforeNames && afterNames) {
      const byName = new Map(after.map((item, i) => [afterNames[i], item]));
      before.forEach((item, i) => collect(item, byName.get(beforeNames[i]), `${at}[name=${beforeNames[i]}]`, changes, secret));
      after.forEach((item, i) => {
        if (!beforeNames.includes(afterNames[i])) collect(undefined, item, `${at}[name=${afterNames[i]}]`, changes, secret);
      });
      return;
    }
    if (before.length === after.length) {
      before.forEach((item, i) => collect(item, after[i], `${at}[${i}]`, changes, secret));
      return;
    }
  }
  if (before === undefined && after === undefined) return;
  if (before !== undefined && after !== undefined && JSON.stringify(before) === JSON.stringify(after)) return;
  const shown = (value: unknown): unknown => (secret ? HIDDEN_SECRET_VALUE : redactSecrets(value));
  changes.push({ path: at, ...(before !== undefined ? { before: shown(before) } : {}), ...(after !== undefined ? { after: shown(after) } : {}) });
}

/** The `name` of every item, when each item is a mapping with a distinct string name. */
function itemNames(list: unknown[]): string[] | undefined {
  if (list.length === 0) return undefined;
  const names = list.map((item) => (isPlainObject(item) && typeof item.name === 'string' ? item.name : undefined));
  if (names.some((name) => name === undefined) || new Set(names).size !== names.length) return undefined;
  return names as string[];
}

function child(at: string, key: string): string {
  if (PLAIN_KEY.test(key)) return at ? `${at}.${key}` : key;
  return `${at}[${JSON.stringify(key)}]`;
}
