import { Aws, CfnCondition, CfnTag, Fn, Stack, Token, Validations } from 'aws-cdk-lib';
import {
  CfnDHCPOptions,
  CfnEIP,
  CfnInternetGateway,
  CfnNatGateway,
  CfnRoute,
  CfnRouteTable,
  CfnSubnet,
  CfnSubnetRouteTableAssociation,
  CfnVPC,
  CfnVPCDHCPOptionsAssociation,
  CfnVPCEndpoint,
  CfnVPCGatewayAttachment,
} from 'aws-cdk-lib/aws-ec2';
import { CfnHostedZone } from 'aws-cdk-lib/aws-route53';
import { Construct } from 'constructs';
import { formatIPv4, parseCidr } from '../core/cidr';
import { DNS1123_LABEL_RULE, isDns1123Label } from '../core/names';
import { Problems } from '../core/problems';
import { isRegularZoneOf, isZoneName, isZoneOf, publishedZoneCount } from './aws-zones';

/** A /16 holds eight pairs of /20s: public subnets in the lower half, private ones in the upper half. */
const MAX_ZONES = 8;
/** Route53 allows 10 tags on a hosted zone; the construct sets 3 of them. */
const MAX_ADDITIONAL_TAGS = 7;

/** Props of HostedClusterNetwork. */
export interface HostedClusterNetworkProps {
  /** The infrastructure ID: in every resource name and in the `kubernetes.io/cluster/<infraId>` tag. */
  readonly infraId: string;
  /** The HostedCluster's name: in the DNS zone names and the `hypershift.openshift.io/cluster-name` tag. */
  readonly clusterName: string;
  /**
   * The cluster's base domain. A public Route53 zone of exactly this name must already exist; it is
   * not created here (upstream only looks it up).
   */
  readonly baseDomain: string;
  /**
   * The label in front of the base domain in the private zone's name, as upstream's
   * `--base-domain-prefix`: `'none'` names the zone after the base domain itself.
   * @default - the cluster name: the private zone is `<clusterName>.<baseDomain>`
   */
  readonly baseDomainPrefix?: string;
  /**
   * The Availability Zones, each getting a public and a private subnet. The order fixes the subnet
   * CIDRs (the i-th zone gets the i-th /20 of each half), so add zones at the end.
   */
  readonly zones: string[];
  /**
   * The VPC CIDR, which becomes the cluster's machine network. It must be a /16: the subnet plan
   * carves it into /20s.
   * @default '10.0.0.0/16'
   */
  readonly vpcCidr?: string;
  /**
   * One NAT gateway, in the first zone, for every zone, instead of one per zone. Cheaper, but the
   * private subnets of every zone lose their egress when that zone fails.
   * @default false
   */
  readonly singleNatGateway?: boolean;
  /** Tags added to every resource after the ones the construct sets. @default - none */
  readonly additionalTags?: Record<string, string>;
}

/** A zone and one of its subnets, as the HostedCluster and its NodePools reference them. */
export interface HostedClusterSubnet {
  /** The Availability Zone's name. */
  readonly zone: string;
  /** The subnet ID (a token until deploy). */
  readonly subnetId: string;
}

/** The resources of one Availability Zone. */
export interface HostedClusterNetworkZone {
  /** The Availability Zone's name. */
  readonly zone: string;
  /** The zone's private subnet, where the nodes run. */
  readonly privateSubnet: CfnSubnet;
  /** The zone's public subnet, for load balancers and the NAT gateway. */
  readonly publicSubnet: CfnSubnet;
  /** The private subnet's route table. */
  readonly privateRouteTable: CfnRouteTable;
  /** @default - none in every zone but the first with `singleNatGateway` */
  readonly natGateway?: CfnNatGateway;
  /** The NAT gateway's address. @default - none where there is no NAT gateway */
  readonly elasticIp?: CfnEIP;
}

/**
 * The VPC and DNS zones of one hosted cluster, resource for resource what `hypershift create infra aws`
 * creates (without proxy, public-only or shared-VPC modes): a VPC with custom DHCP options and an
 * internet gateway; per zone a public and a private /20 subnet, a NAT gateway and a private route
 * table; one public route table; an S3 gateway endpoint; and the private and `.hypershift.local`
 * hosted zones. Names, CIDRs and tags are upstream's.
 *
 * Two differences CloudFormation forces: the public route table is associated with each public
 * subnet explicitly instead of replacing the VPC's main route table association (equivalent for
 * these subnets; a subnet added later without an association gets the main table, which has no
 * internet route), and the private zones keep the default SOA negative-caching TTL instead of the
 * 60 seconds upstream sets through the Route53 API.
 *
 * Not created here, as upstream does not create them either: the workers' security group
 * `<infraId>-default-sg`, which the control-plane-operator creates in this VPC at runtime, and the
 * records in the private zones, which the operators write. Delete the HostedCluster before this
 * stack, or the zone deletion fails on those records and the VPC deletion on that group.
 */
export class HostedClusterNetwork extends Construct {
  /** The VPC ID (a token until deploy); the HostedCluster's `cloudProviderConfig.vpc`. */
  public readonly vpcId: string;
  /** The VPC CIDR; the HostedCluster's machine network. */
  public readonly machineCidr: string;
  /** One private subnet per zone, in the order of `zones`; the first is the cloud provider's subnet. */
  public readonly privateSubnets: readonly HostedClusterSubnet[];
  /** One public subnet per zone, in the order of `zones`. */
  public readonly publicSubnets: readonly HostedClusterSubnet[];
  /** The private hosted zone's ID (a token until deploy); the HostedCluster's `dns.privateZoneID`. */
  public readonly privateZoneId: string;
  /** The `<clusterName>.hypershift.local` zone's ID (a token until deploy). */
  public readonly localZoneId: string;
  /** The private hosted zone's name, `<clusterName>.<baseDomain>`. */
  public readonly privateZoneName: string;
  /** The local hosted zone's name, `<clusterName>.hypershift.local`. */
  public readonly localZoneName: string;

  /** The VPC. */
  public readonly vpc: CfnVPC;
  /** The VPC's DHCP options. */
  public readonly dhcpOptions: CfnDHCPOptions;
  /** The VPC's internet gateway. */
  public readonly internetGateway: CfnInternetGateway;
  /** The route table of the public subnets. */
  public readonly publicRouteTable: CfnRouteTable;
  /** The S3 gateway endpoint. */
  public readonly s3Endpoint: CfnVPCEndpoint;
  /** The private hosted zone `<clusterName>.<baseDomain>`. */
  public readonly privateHostedZone: CfnHostedZone;
  /** The private hosted zone `<clusterName>.hypershift.local`. */
  public readonly localHostedZone: CfnHostedZone;
  /** The per-zone resources, in the order of `zones`. */
  public readonly zoneResources: readonly HostedClusterNetworkZone[];

  constructor(scope: Construct, id: string, props: HostedClusterNetworkProps) {
    super(scope, id);
    const vpcCidr = props.vpcCidr ?? '10.0.0.0/16';
    const region = Stack.of(this).region;
    const block = validate(this, props, vpcCidr, Token.isUnresolved(region) ? undefined : region);

    const { infraId, clusterName } = props;
    const tags = (name: string | undefined, extra: Record<string, string> = {}): CfnTag[] =>
      Object.entries({
        [`kubernetes.io/cluster/${infraId}`]: 'owned',
        'hypershift.openshift.io/infra-id': infraId,
        'hypershift.openshift.io/cluster-name': clusterName,
        ...(name === undefined ? {} : { Name: name }),
        ...extra,
        ...props.additionalTags,
      }).map(([key, value]) => ({ key, value }));

    this.machineCidr = block.canonical;
    this.vpc = new CfnVPC(this, 'Resource', {
      cidrBlock: this.machineCidr,
      enableDnsSupport: true,
      enableDnsHostnames: true,
      tags: tags(`${infraId}-vpc`),
    });
    this.vpcId = this.vpc.ref;

    this.dhcpOptions = new CfnDHCPOptions(this, 'DhcpOptions', {
      domainName: this.dhcpDomainName(region),
      domainNameServers: ['AmazonProvidedDNS'],
      tags: tags(undefined),
    });
    new CfnVPCDHCPOptionsAssociation(this, 'DhcpOptionsAssociation', { vpcId: this.vpcId, dhcpOptionsId: this.dhcpOptions.ref });

    this.internetGateway = new CfnInternetGateway(this, 'InternetGateway', { tags: tags(`${infraId}-igw`) });
    const attachment = new CfnVPCGatewayAttachment(this, 'InternetGatewayAttachment', {
      vpcId: this.vpcId,
      internetGatewayId: this.internetGateway.ref,
    });

    this.publicRouteTable = new CfnRouteTable(this, 'PublicRouteTable', { vpcId: this.vpcId, tags: tags(`${infraId}-public`) });
    const internetRoute = new CfnRoute(this, 'PublicDefaultRoute', {
      routeTableId: this.publicRouteTable.ref,
      destinationCidrBlock: '0.0.0.0/0',
      gatewayId: this.internetGateway.ref,
    });
    // A route to an internet gateway fails until the gateway is attached; so does a public NAT gateway.
    internetRoute.addResourceDependency(attachment);

    // Zones are named, not discovered: that is upstream's --zones, not a portability slip.
    Validations.of(this).acknowledge({
      id: 'CloudFormation-Validate::W3010',
      reason: 'hypershift puts one subnet pair in each zone the user names, as create infra aws --zones does',
    });
    const zoneResources: HostedClusterNetworkZone[] = [];
    let sharedNat: CfnNatGateway | undefined;
    props.zones.forEach((zone, i) => {
      // Keyed by zone name, so that appending a zone leaves the logical IDs of the others alone.
      const zoneScope = new Construct(this, zone);
      const subnet = (kind: 'private' | 'public', thirdOctet: number, extra: Record<string, string>) =>
        new CfnSubnet(zoneScope, kind === 'private' ? 'PrivateSubnet' : 'PublicSubnet', {
          vpcId: this.vpcId,
          availabilityZone: zone,
          cidrBlock: `${formatIPv4(block.first + (BigInt(thirdOctet) << 8n))}/20`,
          tags: tags(`${infraId}-${kind}-${zone}`, extra),
        });
      const privateSubnet = subnet('private', 128 + 16 * i, {
        'kubernetes.io/role/internal-elb': '1',
        'karpenter.sh/discovery': infraId,
      });
      const publicSubnet = subnet('public', 16 * i, { 'kubernetes.io/role/elb': '1' });
      new CfnSubnetRouteTableAssociation(zoneScope, 'PublicSubnetRouteTableAssociation', {
        subnetId: publicSubnet.ref,
        routeTableId: this.publicRouteTable.ref,
      });

      let natGateway: CfnNatGateway | undefined;
      let elasticIp: CfnEIP | undefined;
      if (!props.singleNatGateway || i === 0) {
        elasticIp = new CfnEIP(zoneScope, 'ElasticIp', { domain: 'vpc', tags: tags(`${infraId}-eip-${zone}`) });
        elasticIp.addResourceDependency(attachment);
        natGateway = new CfnNatGateway(zoneScope, 'NatGateway', {
          allocationId: elasticIp.attrAllocationId,
          subnetId: publicSubnet.ref,
          tags: tags(`${infraId}-nat-${zone}`),
        });
        natGateway.addResourceDependency(attachment);
        sharedNat ??= natGateway;
      }

      const privateRouteTable = new CfnRouteTable(zoneScope, 'PrivateRouteTable', { vpcId: this.vpcId, tags: tags(`${infraId}-private-${zone}`) });
      new CfnRoute(zoneScope, 'PrivateDefaultRoute', {
        routeTableId: privateRouteTable.ref,
        destinationCidrBlock: '0.0.0.0/0',
        natGatewayId: (natGateway ?? sharedNat!).ref,
      });
      new CfnSubnetRouteTableAssociation(zoneScope, 'PrivateSubnetRouteTableAssociation', {
        subnetId: privateSubnet.ref,
        routeTableId: privateRouteTable.ref,
      });
      zoneResources.push({ zone, privateSubnet, publicSubnet, privateRouteTable, natGateway, elasticIp });
    });
    this.zoneResources = zoneResources;
    this.privateSubnets = zoneResources.map((z) => ({ zone: z.zone, subnetId: z.privateSubnet.ref }));
    this.publicSubnets = zoneResources.map((z) => ({ zone: z.zone, subnetId: z.publicSubnet.ref }));

    this.s3Endpoint = new CfnVPCEndpoint(this, 'S3Endpoint', {
      vpcId: this.vpcId,
      vpcEndpointType: 'Gateway',
      serviceName: `com.amazonaws.${region}.s3`,
      routeTableIds: [...zoneResources.map((z) => z.privateRouteTable.ref), this.publicRouteTable.ref],
      tags: tags(undefined),
    });

    this.privateZoneName = privateZoneName(props);
    this.localZoneName = `${clusterName}.hypershift.local`;
    const hostedZone = (zoneId: string, name: string) =>
      new CfnHostedZone(this, zoneId, {
        name,
        vpcs: [{ vpcId: this.vpcId, vpcRegion: region }],
        hostedZoneTags: tags(undefined),
      });
    this.privateHostedZone = hostedZone('PrivateHostedZone', this.privateZoneName);
    this.localHostedZone = hostedZone('LocalHostedZone', this.localZoneName);
    this.privateZoneId = this.privateHostedZone.attrId;
    this.localZoneId = this.localHostedZone.attrId;
  }

  /** Upstream's rule: `ec2.internal` in us-east-1, `<region>.compute.internal` elsewhere; decided at deploy for a region-agnostic stack. */
  private dhcpDomainName(region: string): string {
    if (!Token.isUnresolved(region)) return region === 'us-east-1' ? 'ec2.internal' : `${region}.compute.internal`;
    const inUsEast1 = new CfnCondition(this, 'RegionIsUsEast1', { expression: Fn.conditionEquals(Aws.REGION, 'us-east-1') });
    return Token.asString(Fn.conditionIf(inUsEast1.logicalId, 'ec2.internal', `${Aws.REGION}.compute.internal`));
  }
}

/** Upstream's `ZoneName`: the prefix (by default the cluster name) in front of the base domain, or none for `'none'`. */
function privateZoneName(props: HostedClusterNetworkProps): string {
  const prefix = props.baseDomainPrefix || props.clusterName;
  return prefix === 'none' ? props.baseDomain : `${prefix}.${props.baseDomain}`;
}

// The HostedCluster CRD's rule for spec.dns.baseDomain and baseDomainPrefix, plus DNS label and name lengths.
const DOMAIN_NAME = /^(?:(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,}|[a-zA-Z0-9-]+)$/;
const DOMAIN_NAME_RULE = 'must be a domain name such as example.com: dot-separated labels of letters, digits and "-", each at most 63 characters, at most 253 in all';

function isDomainName(value: string): boolean {
  return value.length <= 253 && DOMAIN_NAME.test(value) && value.split('.').every((label) => label.length <= 63);
}

const INFRA_ID = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Checks the props; returns the VPC block or throws one error listing every problem. */
function validate(scope: Construct, props: HostedClusterNetworkProps, vpcCidr: string, region: string | undefined) {
  const problems = new Problems(scope);

  problems.require(
    props.infraId.length <= 253 && INFRA_ID.test(props.infraId),
    'infraId',
    props.infraId,
    'must be lower-case letters, digits and "-", starting and ending with a letter or digit, at most 253 characters',
  );
  problems.require(isDns1123Label(props.clusterName), 'clusterName', props.clusterName, DNS1123_LABEL_RULE);
  problems.require(isDomainName(props.baseDomain), 'baseDomain', props.baseDomain, DOMAIN_NAME_RULE);
  const prefix = props.baseDomainPrefix;
  if (prefix) {
    problems.require(
      prefix === 'none' || isDomainName(prefix),
      'baseDomainPrefix',
      prefix,
      `must be "none" (no prefix) or a domain name: dot-separated labels of letters, digits and "-", each at most 63 characters`,
    );
  }

  const zones = props.zones;
  problems.require(zones.length > 0, 'zones', zones, 'must name at least one availability zone');
  problems.require(zones.length <= MAX_ZONES, 'zones', zones, `must name at most ${MAX_ZONES} availability zones, as the /16 holds ${MAX_ZONES} pairs of /20 subnets`);
  const firstIndex = new Map<string, number>();
  zones.forEach((zone, i) => {
    const field = `zones[${i}]`;
    const seen = firstIndex.get(zone);
    if (seen !== undefined) {
      problems.add(`${field} (${JSON.stringify(zone)}) must differ from zones[${seen}]: each zone gets one pair of subnets`);
      return;
    }
    firstIndex.set(zone, i);
    if (region === undefined) {
      problems.require(isZoneName(zone), field, zone, 'must be an availability zone name such as "us-east-1a"');
    } else {
      problems.require(isZoneOf(zone, region), field, zone, `must be an availability zone of the stack's region ${region}, such as "${region}a"`);
    }
  });
  const published = region === undefined ? undefined : publishedZoneCount(region);
  if (published !== undefined) {
    const regular = [...firstIndex.keys()].filter((zone) => isRegularZoneOf(zone, region!));
    problems.require(regular.length <= published, 'zones', zones, `must name at most ${published} availability zones, as many as ${region} has`);
  }

  const block = parseCidr(vpcCidr);
  if (
    problems.require(block !== undefined && block.family === 4 && block.prefixLength === 16, 'vpcCidr', vpcCidr, "must be an IPv4 /16, as hypershift's subnet plan (one /20 pair per zone) requires")
  ) {
    problems.require(!block!.hostBitsSet, 'vpcCidr', vpcCidr, `must have its host bits clear: write it as "${block!.canonical}"`);
  }

  const tags = Object.entries(props.additionalTags ?? {});
  const reserved = new Set([
    `kubernetes.io/cluster/${props.infraId}`,
    'hypershift.openshift.io/infra-id',
    'hypershift.openshift.io/cluster-name',
    'Name',
    'kubernetes.io/role/internal-elb',
    'kubernetes.io/role/elb',
    'karpenter.sh/discovery',
  ]);
  problems.require(
    tags.length <= MAX_ADDITIONAL_TAGS,
    'additionalTags',
    props.additionalTags,
    `must have at most ${MAX_ADDITIONAL_TAGS} entries, as Route53 allows 10 tags on a hosted zone and the construct sets 3`,
  );
  for (const [key, value] of tags) {
    const field = `additionalTags[${JSON.stringify(key)}]`;
    if (reserved.has(key)) {
      problems.add(`${field} (${JSON.stringify(value)}) must not be set: the construct sets tag ${key} itself`);
    } else {
      problems.require(
        key.length > 0 && key.length <= 128 && !key.toLowerCase().startsWith('aws:'),
        'additionalTags key',
        key,
        'must be 1 to 128 characters and must not start with "aws:", which AWS reserves',
      );
    }
    problems.require(value.length <= 256, field, value, 'must be at most 256 characters, the AWS limit for a tag value');
  }

  problems.throwIfAny();
  return block!;
}
