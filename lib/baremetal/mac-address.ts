/** A MAC address as Metal3 and the assisted installer take it: six colon-separated hex octets. */
const MAC = /^([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}$/;

/** What a MAC address must look like, for error messages. */
export const MAC_ADDRESS_RULE = 'must be a MAC address: six two-digit hex octets separated by ":", e.g. aa:bb:cc:00:11:22';

/** Whether the text is a MAC address: six colon-separated two-digit hex octets. */
export function isMacAddress(value: string): boolean {
  return MAC.test(value);
}

/** Lower case, so that AA:BB:… and aa:bb:… count as the same NIC. */
export function normalizeMac(value: string): string {
  return value.toLowerCase();
}
