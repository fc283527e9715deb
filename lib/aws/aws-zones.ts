/**
 * What hcp-cdk knows about AWS Availability Zone names without asking AWS: the number of zones each
 * region is published with, and the shape of a zone name.
 */

/**
 * Availability Zones per region, as AWS publishes them. Used only as an upper bound: an account can
 * see fewer (us-west-1 and ap-northeast-1 offer new accounts one zone less), and AWS itself rejects
 * a zone the account lacks at deploy time. Regions missing here are simply not checked.
 */
const PUBLISHED_ZONE_COUNTS: Readonly<Record<string, number>> = {
  'us-east-1': 6,
  'us-east-2': 3,
  'us-west-1': 3,
  'us-west-2': 4,
  'af-south-1': 3,
  'ap-east-1': 3,
  'ap-south-1': 3,
  'ap-south-2': 3,
  'ap-northeast-1': 4,
  'ap-northeast-2': 4,
  'ap-northeast-3': 3,
  'ap-southeast-1': 3,
  'ap-southeast-2': 3,
  'ap-southeast-3': 3,
  'ap-southeast-4': 3,
  'ap-southeast-5': 3,
  'ap-southeast-7': 3,
  'ca-central-1': 3,
  'ca-west-1': 3,
  'eu-central-1': 3,
  'eu-central-2': 3,
  'eu-north-1': 3,
  'eu-south-1': 3,
  'eu-south-2': 3,
  'eu-west-1': 3,
  'eu-west-2': 3,
  'eu-west-3': 3,
  'il-central-1': 3,
  'me-central-1': 3,
  'me-south-1': 3,
  'mx-central-1': 3,
  'sa-east-1': 3,
  'us-gov-east-1': 3,
  'us-gov-west-1': 3,
  'cn-north-1': 3,
  'cn-northwest-1': 3,
};

/** The number of Availability Zones `region` is published with, or undefined for a region not in the table. */
export function publishedZoneCount(region: string): number | undefined {
  return Object.prototype.hasOwnProperty.call(PUBLISHED_ZONE_COUNTS, region) ? PUBLISHED_ZONE_COUNTS[region] : undefined;
}

// A regular zone is the region plus one letter (us-east-1a); Local and Wavelength Zones add a
// dash-separated suffix (us-west-2-lax-1a, us-east-1-wl1-bos-wlz-1).
const ZONE_SUFFIX = /^([a-z]|-[a-z0-9]+(-[a-z0-9]+)*)$/;
const REGION = /^[a-z]{2}(-[a-z]+)+-[0-9]+/;

/** Whether `zone` looks like the name of an Availability, Local or Wavelength Zone of any region. */
export function isZoneName(zone: string): boolean {
  const region = REGION.exec(zone);
  return region !== null && ZONE_SUFFIX.test(zone.slice(region[0].length));
}

/** Whether `zone` is an Availability, Local or Wavelength Zone of `region`. */
export function isZoneOf(zone: string, region: string): boolean {
  return zone.startsWith(region) && ZONE_SUFFIX.test(zone.slice(region.length));
}

/** Whether `zone` is one of the regular Availability Zones of `region` (not a Local or Wavelength Zone). */
export function isRegularZoneOf(zone: string, region: string): boolean {
  return zone.length === region.length + 1 && isZoneOf(zone, region);
}
