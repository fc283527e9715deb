/** How many replicas the control plane or the guest infrastructure components run. */
export enum AvailabilityPolicy {
  /** Three replicas spread across zones; what the `hcp` CLI and the API default to. */
  HIGHLY_AVAILABLE = 'HighlyAvailable',
  /** One replica; the docs call non-HA control planes unsupported for production. */
  SINGLE_REPLICA = 'SingleReplica',
}
