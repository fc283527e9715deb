/**
 * The one redaction of secret material in what hcp-cdk reports (plans in every format, validate
 * reports in every format, error messages, `plan --live`): applied where values enter a report's
 * data, so that each format inherits it. What it hides: the values of a Secret (`data`,
 * `stringData`, and any field of a Secret but its identity and type, where a misspelt `stringdata`
 * holds the same material), wherever the Secret is carried (an ACM Policy's object templates, a
 * ConfigurationPolicy, a List, any wrapper); credentials in URLs (`https://user:password@host`);
 * and text that is secret material by its form (a PEM private key, a pull secret's `auths`).
 */

/** What a hidden Secret value is shown as. */
export const HIDDEN_SECRET_VALUE = '(hidden: a Secret value)';

/** The fields of a Secret that say what it is, not what it holds: shown as they are. */
const SECRET_IDENTITY_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'type', 'immutable']);

/** Whether `value` is a Secret object (a Kubernetes v1 Secret, wherever it is carried). */
export function isSecretObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const object = value as Record<string, unknown>;
  return object.kind === 'Secret' && (object.apiVersion === undefined || object.apiVersion === 'v1');
}

/**
 * Whether the field at `path` (a list of keys and indexes from the object's root) of a Secret holds
 * secret material: every field but its identity (apiVersion, kind, metadata, type, immutable).
 */
export function isSecretField(path: readonly (string | number)[]): boolean {
  return path.length > 0 && !SECRET_IDENTITY_FIELDS.has(String(path[0]));
}

/**
 * `value` with every Secret in it, at any depth, holding HIDDEN_SECRET_VALUE in place of each value
 * of its secret fields (see `isSecretField`); strings that are secret material by their form
 * hidden too (see `redactText`). A copy: `value` is not changed. Keys are kept: which keys changed
 * is what a reviewer needs.
 */
export function redactSecrets(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(redactSecrets);
  const secret = isSecretObject(value);
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) copy[key] = secret && isSecretField([key]) ? hideLeaves(child) : redactSecrets(child);
  return copy;
}

/** Every leaf of `value` replaced by HIDDEN_SECRET_VALUE, keys kept. */
function hideLeaves(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return HIDDEN_SECRET_VALUE;
  if (Array.isArray(value)) return value.map(hideLeaves);
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, hideLeaves(child)]));
}

/** `user:password@` (or `token@`) in a URL: the credentials part of its authority. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;
/** A PEM block of a private key, from its header to its footer (or to the end, when cut short). */
const PEM_PRIVATE_KEY = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(-----END \1PRIVATE KEY-----|$)/g;

/**
 * `text` with secret material hidden: credentials in URLs (`https://(credentials hidden)@host`),
 * PEM private keys, and, when the text is a pull secret (JSON with `auths`), all of it.
 */
export function redactText(text: string): string {
  if (/"auths"\s*:/.test(text)) return `(hidden: ${text.length} characters of a pull secret)`;
  return text.replace(URL_CREDENTIALS, '$1(credentials hidden)@').replace(PEM_PRIVATE_KEY, '(hidden: a private key)');
}

/** Whether `text` holds secret material by its form (see `redactText`). */
export function holdsSecretMaterial(text: string): boolean {
  return redactText(text) !== text;
}
