import { App, Environment, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HcpValidationError } from '../../lib';
import { HostedClusterNetwork, HostedClusterNetworkProps } from '../../lib/aws';

// Expected values are written out from hypershift-reference.md §5, not computed the way the construct does.
const ENV: Environment = { account: '123456789012', region: 'us-east-1' };
const PATH = 'Infra/Network';
const ONE_ZONE: HostedClusterNetworkProps = { infraId: 'demo-x7k2p', clusterName: 'demo', baseDomain: 'example.com', zones: ['us-east-1a'] };
const THREE_ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
const CLUSTER_TAGS = {
  'kubernetes.io/cluster/demo-x7k2p': 'owned',
  'hypershift.openshift.io/infra-id': 'demo-x7k2p',
  'hypershift.openshift.io/cluster-name': 'demo',
};

interface Built {
  readonly stack: Stack;
  readonly network: HostedClusterNetwork;
  readonly template: Template;
}

/** A network in a stack of its own; `env: 'agnostic'` leaves the region to deploy time. */
function build(props: Partial<HostedClusterNetworkProps> = {}, env: Environment | 'agnostic' = ENV): Built {
  const stack = new Stack(new App(), 'Infra', env === 'agnostic' ? {} : { env });
  const network = new HostedClusterNetwork(stack, 'Network', { ...ONE_ZONE, ...props });
  return { stack, network, template: Template.fromStack(stack) };
}

/** The problems the constructor reports, or [] when it accepts the props. */
function problems(props: Partial<HostedClusterNetworkProps>, env: Environment | 'agnostic' = ENV): string[] {
  try {
    build(props, env);
    return [];
  } catch (error) {
    if (error instanceof HcpValidationError) return [...error.problems];
    throw error;
  }
}

interface Resource {
  readonly id: string;
  readonly Type: string;
  readonly Properties: any;
  readonly DependsOn?: string[];
}

function resources(template: Template, type?: string): Resource[] {
  const all = template.toJSON().Resources as Record<string, Omit<Resource, 'id'>>;
  return Object.entries(all)
    .filter(([, r]) => type === undefined || r.Type === type)
    .map(([id, r]) => ({ id, ...r }));
}

function tagsOf(resource: Resource, property = 'Tags'): Record<string, string> {
  return Object.fromEntries((resource.Properties[property] as { Key: string; Value: string }[]).map((t) => [t.Key, t.Value]));
}

/** The one resource of `type` whose Name tag is `name`. */
function named(template: Template, type: string, name: string): Resource {
  const found = resources(template, type).filter((r) => r.Properties.Tags && tagsOf(r).Name === name);
  if (found.length !== 1) throw new Error(`expected one ${type} named ${name}, found ${found.length}`);
  return found[0];
}

function ref(resource: Resource) {
  return { Ref: resource.id };
}

function countsByType(template: Template): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of resources(template)) counts[r.Type] = (counts[r.Type] ?? 0) + 1;
  return counts;
}

describe('HostedClusterNetwork', () => {
  describe('resource counts', () => {
    test('one zone: one VPC, DHCP options, gateway, endpoint and public route table, a subnet pair, one NAT gateway, two zones', () => {
      const { template } = build();
      expect(countsByType(template)).toEqual({
        'AWS::EC2::VPC': 1,
        'AWS::EC2::DHCPOptions': 1,
        'AWS::EC2::VPCDHCPOptionsAssociation': 1,
        'AWS::EC2::InternetGateway': 1,
        'AWS::EC2::VPCGatewayAttachment': 1,
        'AWS::EC2::Subnet': 2,
        'AWS::EC2::EIP': 1,
        'AWS::EC2::NatGateway': 1,
        'AWS::EC2::RouteTable': 2,
        'AWS::EC2::Route': 2,
        'AWS::EC2::SubnetRouteTableAssociation': 2,
        'AWS::EC2::VPCEndpoint': 1,
        'AWS::Route53::HostedZone': 2,
      });
      expect(resources(template)).toHaveLength(18);
    });

    test('three zones: a subnet pair, NAT gateway and private route table per zone', () => {
      const { template } = build({ zones: THREE_ZONES });
      expect(countsByType(template)).toEqual({
        'AWS::EC2::VPC': 1,
        'AWS::EC2::DHCPOptions': 1,
        'AWS::EC2::VPCDHCPOptionsAssociation': 1,
        'AWS::EC2::InternetGateway': 1,
        'AWS::EC2::VPCGatewayAttachment': 1,
        'AWS::EC2::Subnet': 6,
        'AWS::EC2::EIP': 3,
        'AWS::EC2::NatGateway': 3,
        'AWS::EC2::RouteTable': 4,
        'AWS::EC2::Route': 4,
        'AWS::EC2::SubnetRouteTableAssociation': 6,
        'AWS::EC2::VPCEndpoint': 1,
        'AWS::Route53::HostedZone': 2,
      });
      expect(resources(template)).toHaveLength(34);
    });

    test('three zones with singleNatGateway: one Elastic IP and one NAT gateway', () => {
      const { template } = build({ zones: THREE_ZONES, singleNatGateway: true });
      const counts = countsByType(template);
      expect(counts['AWS::EC2::EIP']).toBe(1);
      expect(counts['AWS::EC2::NatGateway']).toBe(1);
      expect(counts['AWS::EC2::RouteTable']).toBe(4);
      expect(counts['AWS::EC2::Route']).toBe(4);
      expect(resources(template)).toHaveLength(30);
    });

    test("stay far under CloudFormation's 500 resources per stack: 34 for three zones, 58 for all six of us-east-1", () => {
      expect(resources(build({ zones: THREE_ZONES }).template).length).toBeLessThan(50);
      const six = ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1d', 'us-east-1e', 'us-east-1f'];
      expect(resources(build({ zones: six }).template)).toHaveLength(58);
    });
  });

  describe('VPC', () => {
    test('is <infraId>-vpc with the default CIDR, DNS support and DNS hostnames', () => {
      const vpc = named(build().template, 'AWS::EC2::VPC', 'demo-x7k2p-vpc');
      expect(vpc.Properties).toEqual({
        CidrBlock: '10.0.0.0/16',
        EnableDnsSupport: true,
        EnableDnsHostnames: true,
        Tags: expect.any(Array),
      });
      expect(tagsOf(vpc)).toEqual({ ...CLUSTER_TAGS, Name: 'demo-x7k2p-vpc' });
    });

    test('takes vpcCidr', () => {
      const vpc = named(build({ vpcCidr: '172.16.0.0/16' }).template, 'AWS::EC2::VPC', 'demo-x7k2p-vpc');
      expect(vpc.Properties.CidrBlock).toBe('172.16.0.0/16');
    });

    test('gets DHCP options with domain ec2.internal in us-east-1 and the Amazon DNS server, without a Name tag', () => {
      const { template } = build();
      const [options] = resources(template, 'AWS::EC2::DHCPOptions');
      expect(options.Properties).toEqual({ DomainName: 'ec2.internal', DomainNameServers: ['AmazonProvidedDNS'], Tags: expect.any(Array) });
      expect(tagsOf(options)).toEqual(CLUSTER_TAGS);
      const [association] = resources(template, 'AWS::EC2::VPCDHCPOptionsAssociation');
      const vpc = named(template, 'AWS::EC2::VPC', 'demo-x7k2p-vpc');
      expect(association.Properties).toEqual({ DhcpOptionsId: ref(options), VpcId: ref(vpc) });
    });

    test('gets DHCP domain <region>.compute.internal outside us-east-1', () => {
      const { template } = build({ zones: ['eu-west-1a'] }, { account: '123456789012', region: 'eu-west-1' });
      const [options] = resources(template, 'AWS::EC2::DHCPOptions');
      expect(options.Properties.DomainName).toBe('eu-west-1.compute.internal');
    });

    test('chooses the DHCP domain at deploy time in a region-agnostic stack', () => {
      const { template } = build({}, 'agnostic');
      const conditions = template.toJSON().Conditions;
      const [conditionId] = Object.keys(conditions);
      expect(conditions[conditionId]).toEqual({ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] });
      const [options] = resources(template, 'AWS::EC2::DHCPOptions');
      expect(options.Properties.DomainName).toEqual({
        'Fn::If': [conditionId, 'ec2.internal', { 'Fn::Join': ['', [{ Ref: 'AWS::Region' }, '.compute.internal']] }],
      });
    });

    test('gets internet gateway <infraId>-igw, attached to the VPC', () => {
      const { template } = build();
      const gateway = named(template, 'AWS::EC2::InternetGateway', 'demo-x7k2p-igw');
      expect(tagsOf(gateway)).toEqual({ ...CLUSTER_TAGS, Name: 'demo-x7k2p-igw' });
      const [attachment] = resources(template, 'AWS::EC2::VPCGatewayAttachment');
      expect(attachment.Properties).toEqual({ InternetGatewayId: ref(gateway), VpcId: ref(named(template, 'AWS::EC2::VPC', 'demo-x7k2p-vpc')) });
    });
  });

  describe('subnets', () => {
    const { template } = build({ zones: THREE_ZONES });
    const vpc = named(template, 'AWS::EC2::VPC', 'demo-x7k2p-vpc');

    test.each([
      ['us-east-1a', '10.0.128.0/20'],
      ['us-east-1b', '10.0.144.0/20'],
      ['us-east-1c', '10.0.160.0/20'],
    ])('private subnet in %s is %s, tagged for internal load balancers and Karpenter', (zone, cidr) => {
      const subnet = named(template, 'AWS::EC2::Subnet', `demo-x7k2p-private-${zone}`);
      expect(subnet.Properties).toEqual({ VpcId: ref(vpc), AvailabilityZone: zone, CidrBlock: cidr, Tags: expect.any(Array) });
      expect(tagsOf(subnet)).toEqual({
        ...CLUSTER_TAGS,
        'Name': `demo-x7k2p-private-${zone}`,
        'kubernetes.io/role/internal-elb': '1',
        'karpenter.sh/discovery': 'demo-x7k2p',
      });
    });

    test.each([
      ['us-east-1a', '10.0.0.0/20'],
      ['us-east-1b', '10.0.16.0/20'],
      ['us-east-1c', '10.0.32.0/20'],
    ])('public subnet in %s is %s, tagged for internet-facing load balancers, with no public IPs on launch', (zone, cidr) => {
      const subnet = named(template, 'AWS::EC2::Subnet', `demo-x7k2p-public-${zone}`);
      expect(subnet.Properties).toEqual({ VpcId: ref(vpc), AvailabilityZone: zone, CidrBlock: cidr, Tags: expect.any(Array) });
      expect(tagsOf(subnet)).toEqual({ ...CLUSTER_TAGS, 'Name': `demo-x7k2p-public-${zone}`, 'kubernetes.io/role/elb': '1' });
    });

    test('follow the base of vpcCidr', () => {
      const other = build({ zones: THREE_ZONES, vpcCidr: '172.31.0.0/16' }).template;
      const cidrs = resources(other, 'AWS::EC2::Subnet')
        .map((s) => `${tagsOf(s).Name} ${s.Properties.CidrBlock}`)
        .sort();
      expect(cidrs).toEqual([
        'demo-x7k2p-private-us-east-1a 172.31.128.0/20',
        'demo-x7k2p-private-us-east-1b 172.31.144.0/20',
        'demo-x7k2p-private-us-east-1c 172.31.160.0/20',
        'demo-x7k2p-public-us-east-1a 172.31.0.0/20',
        'demo-x7k2p-public-us-east-1b 172.31.16.0/20',
        'demo-x7k2p-public-us-east-1c 172.31.32.0/20',
      ]);
    });

    test('fill the /16 with eight zones: public 10.0.112.0/20 and private 10.0.240.0/20 last', () => {
      const eight = ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1d', 'us-east-1e', 'us-east-1f', 'us-east-1-bos-1a', 'us-east-1-mia-1a'];
      const last = build({ zones: eight }).template;
      expect(named(last, 'AWS::EC2::Subnet', 'demo-x7k2p-public-us-east-1-mia-1a').Properties.CidrBlock).toBe('10.0.112.0/20');
      expect(named(last, 'AWS::EC2::Subnet', 'demo-x7k2p-private-us-east-1-mia-1a').Properties.CidrBlock).toBe('10.0.240.0/20');
    });
  });

  describe('routing', () => {
    const { template } = build({ zones: THREE_ZONES });
    const vpc = named(template, 'AWS::EC2::VPC', 'demo-x7k2p-vpc');
    const routes = resources(template, 'AWS::EC2::Route');
    const associations = resources(template, 'AWS::EC2::SubnetRouteTableAssociation');
    const [attachment] = resources(template, 'AWS::EC2::VPCGatewayAttachment');

    test('public route table <infraId>-public sends 0.0.0.0/0 to the internet gateway, once it is attached', () => {
      const table = named(template, 'AWS::EC2::RouteTable', 'demo-x7k2p-public');
      expect(table.Properties).toEqual({ VpcId: ref(vpc), Tags: expect.any(Array) });
      expect(tagsOf(table)).toEqual({ ...CLUSTER_TAGS, Name: 'demo-x7k2p-public' });
      const own = routes.filter((r) => r.Properties.RouteTableId.Ref === table.id);
      expect(own).toHaveLength(1);
      expect(own[0].Properties).toEqual({
        RouteTableId: ref(table),
        DestinationCidrBlock: '0.0.0.0/0',
        GatewayId: ref(named(template, 'AWS::EC2::InternetGateway', 'demo-x7k2p-igw')),
      });
      expect(own[0].DependsOn).toEqual([attachment.id]);
    });

    test('public route table serves every public subnet and nothing else', () => {
      const table = named(template, 'AWS::EC2::RouteTable', 'demo-x7k2p-public');
      const served = associations
        .filter((a) => a.Properties.RouteTableId.Ref === table.id)
        .map((a) => a.Properties.SubnetId.Ref)
        .sort();
      const publicSubnets = THREE_ZONES.map((zone) => named(template, 'AWS::EC2::Subnet', `demo-x7k2p-public-${zone}`).id).sort();
      expect(served).toEqual(publicSubnets);
    });

    test.each(THREE_ZONES)('%s: Elastic IP and NAT gateway in the public subnet, both after the gateway attachment', (zone) => {
      const eip = named(template, 'AWS::EC2::EIP', `demo-x7k2p-eip-${zone}`);
      expect(eip.Properties).toEqual({ Domain: 'vpc', Tags: expect.any(Array) });
      expect(tagsOf(eip)).toEqual({ ...CLUSTER_TAGS, Name: `demo-x7k2p-eip-${zone}` });
      const nat = named(template, 'AWS::EC2::NatGateway', `demo-x7k2p-nat-${zone}`);
      expect(nat.Properties).toEqual({
        AllocationId: { 'Fn::GetAtt': [eip.id, 'AllocationId'] },
        SubnetId: ref(named(template, 'AWS::EC2::Subnet', `demo-x7k2p-public-${zone}`)),
        Tags: expect.any(Array),
      });
      expect(tagsOf(nat)).toEqual({ ...CLUSTER_TAGS, Name: `demo-x7k2p-nat-${zone}` });
      expect(eip.DependsOn).toEqual([attachment.id]);
      expect(nat.DependsOn).toEqual([attachment.id]);
    });

    test.each(THREE_ZONES)("%s: private route table sends 0.0.0.0/0 to the zone's NAT gateway and serves the private subnet only", (zone) => {
      const table = named(template, 'AWS::EC2::RouteTable', `demo-x7k2p-private-${zone}`);
      expect(table.Properties).toEqual({ VpcId: ref(vpc), Tags: expect.any(Array) });
      expect(tagsOf(table)).toEqual({ ...CLUSTER_TAGS, Name: `demo-x7k2p-private-${zone}` });
      const own = routes.filter((r) => r.Properties.RouteTableId.Ref === table.id);
      expect(own.map((r) => r.Properties)).toEqual([
        {
          RouteTableId: ref(table),
          DestinationCidrBlock: '0.0.0.0/0',
          NatGatewayId: ref(named(template, 'AWS::EC2::NatGateway', `demo-x7k2p-nat-${zone}`)),
        },
      ]);
      const served = associations.filter((a) => a.Properties.RouteTableId.Ref === table.id).map((a) => a.Properties.SubnetId);
      expect(served).toEqual([ref(named(template, 'AWS::EC2::Subnet', `demo-x7k2p-private-${zone}`))]);
    });

    test('singleNatGateway: every private route table uses the NAT gateway of the first zone', () => {
      const single = build({ zones: THREE_ZONES, singleNatGateway: true }).template;
      const nat = named(single, 'AWS::EC2::NatGateway', 'demo-x7k2p-nat-us-east-1a');
      expect(nat.Properties.SubnetId).toEqual(ref(named(single, 'AWS::EC2::Subnet', 'demo-x7k2p-public-us-east-1a')));
      expect(named(single, 'AWS::EC2::EIP', 'demo-x7k2p-eip-us-east-1a').Properties.Domain).toBe('vpc');
      const natRoutes = resources(single, 'AWS::EC2::Route').filter((r) => r.Properties.NatGatewayId);
      expect(natRoutes).toHaveLength(3);
      for (const route of natRoutes) expect(route.Properties.NatGatewayId).toEqual(ref(nat));
    });
  });

  describe('S3 endpoint', () => {
    test('is a gateway endpoint for com.amazonaws.<region>.s3 on the private route tables and the public one, without a Name tag', () => {
      const { template } = build({ zones: THREE_ZONES });
      const [endpoint] = resources(template, 'AWS::EC2::VPCEndpoint');
      expect(endpoint.Properties).toEqual({
        VpcId: ref(named(template, 'AWS::EC2::VPC', 'demo-x7k2p-vpc')),
        VpcEndpointType: 'Gateway',
        ServiceName: 'com.amazonaws.us-east-1.s3',
        RouteTableIds: [
          ref(named(template, 'AWS::EC2::RouteTable', 'demo-x7k2p-private-us-east-1a')),
          ref(named(template, 'AWS::EC2::RouteTable', 'demo-x7k2p-private-us-east-1b')),
          ref(named(template, 'AWS::EC2::RouteTable', 'demo-x7k2p-private-us-east-1c')),
          ref(named(template, 'AWS::EC2::RouteTable', 'demo-x7k2p-public')),
        ],
        Tags: expect.any(Array),
      });
      expect(tagsOf(endpoint)).toEqual(CLUSTER_TAGS);
    });

    test("names the stack's region at deploy time in a region-agnostic stack", () => {
      const [endpoint] = resources(build({}, 'agnostic').template, 'AWS::EC2::VPCEndpoint');
      expect(endpoint.Properties.ServiceName).toEqual({ 'Fn::Join': ['', ['com.amazonaws.', { Ref: 'AWS::Region' }, '.s3']] });
    });
  });

  describe('DNS', () => {
    test('private zone <clusterName>.<baseDomain> and local zone <clusterName>.hypershift.local, both private to the VPC', () => {
      const { template } = build();
      const vpc = named(template, 'AWS::EC2::VPC', 'demo-x7k2p-vpc');
      const zones = resources(template, 'AWS::Route53::HostedZone');
      expect(zones.map((z) => z.Properties.Name)).toEqual(['demo.example.com', 'demo.hypershift.local']);
      for (const zone of zones) {
        expect(zone.Properties).toEqual({
          Name: zone.Properties.Name,
          VPCs: [{ VPCId: ref(vpc), VPCRegion: 'us-east-1' }],
          HostedZoneTags: expect.any(Array),
        });
        expect(tagsOf(zone, 'HostedZoneTags')).toEqual(CLUSTER_TAGS);
      }
    });

    test.each([
      ['', 'demo.example.com'],
      ['none', 'example.com'],
      ['apps', 'apps.example.com'],
      ['apps.eu', 'apps.eu.example.com'],
    ])('baseDomainPrefix %j names the private zone %s', (baseDomainPrefix, name) => {
      const { template, network } = build({ baseDomainPrefix });
      expect(network.privateZoneName).toBe(name);
      expect(resources(template, 'AWS::Route53::HostedZone').map((z) => z.Properties.Name)).toEqual([name, 'demo.hypershift.local']);
    });

    test('associates the zones with the VPC in the deploy-time region of a region-agnostic stack', () => {
      for (const zone of resources(build({}, 'agnostic').template, 'AWS::Route53::HostedZone')) {
        expect(zone.Properties.VPCs[0].VPCRegion).toEqual({ Ref: 'AWS::Region' });
      }
    });
  });

  describe('tags', () => {
    test("additionalTags land on every tagged EC2 resource and both zones, after the construct's own", () => {
      const { template } = build({ zones: THREE_ZONES, additionalTags: { 'team': 'platform', 'hypershift.openshift.io/source': 'cli' } });
      const extra = { 'team': 'platform', 'hypershift.openshift.io/source': 'cli' };
      const tagged = resources(template).filter((r) => r.Properties.Tags || r.Properties.HostedZoneTags);
      expect(tagged.map((r) => r.Type).sort()).toEqual([
        'AWS::EC2::DHCPOptions',
        'AWS::EC2::EIP',
        'AWS::EC2::EIP',
        'AWS::EC2::EIP',
        'AWS::EC2::InternetGateway',
        'AWS::EC2::NatGateway',
        'AWS::EC2::NatGateway',
        'AWS::EC2::NatGateway',
        'AWS::EC2::RouteTable',
        'AWS::EC2::RouteTable',
        'AWS::EC2::RouteTable',
        'AWS::EC2::RouteTable',
        'AWS::EC2::Subnet',
        'AWS::EC2::Subnet',
        'AWS::EC2::Subnet',
        'AWS::EC2::Subnet',
        'AWS::EC2::Subnet',
        'AWS::EC2::Subnet',
        'AWS::EC2::VPC',
        'AWS::EC2::VPCEndpoint',
        'AWS::Route53::HostedZone',
        'AWS::Route53::HostedZone',
      ]);
      for (const r of tagged) {
        const tags = tagsOf(r, r.Properties.Tags ? 'Tags' : 'HostedZoneTags');
        expect(tags).toMatchObject({ ...CLUSTER_TAGS, ...extra });
        const unnamed = ['AWS::EC2::DHCPOptions', 'AWS::EC2::VPCEndpoint', 'AWS::Route53::HostedZone'].includes(r.Type);
        expect(tags.Name === undefined).toBe(unnamed);
      }
    });

    test('resources without tags in CloudFormation are the associations, the attachment and the routes', () => {
      const untagged = resources(build().template)
        .filter((r) => !r.Properties.Tags && !r.Properties.HostedZoneTags)
        .map((r) => r.Type)
        .sort();
      expect(untagged).toEqual([
        'AWS::EC2::Route',
        'AWS::EC2::Route',
        'AWS::EC2::SubnetRouteTableAssociation',
        'AWS::EC2::SubnetRouteTableAssociation',
        'AWS::EC2::VPCDHCPOptionsAssociation',
        'AWS::EC2::VPCGatewayAttachment',
      ]);
    });
  });

  describe('exposed values', () => {
    const { stack, network, template } = build({ zones: THREE_ZONES });

    test("vpcId is the VPC's Ref and machineCidr the literal VPC CIDR", () => {
      expect(stack.resolve(network.vpcId)).toEqual(ref(named(template, 'AWS::EC2::VPC', 'demo-x7k2p-vpc')));
      expect(network.machineCidr).toBe('10.0.0.0/16');
    });

    test("privateSubnets and publicSubnets list each zone with its subnet's Ref, in the order of zones", () => {
      const resolve = (subnets: readonly { zone: string; subnetId: string }[]) => subnets.map((s) => ({ zone: s.zone, subnetId: stack.resolve(s.subnetId) }));
      expect(resolve(network.privateSubnets)).toEqual(THREE_ZONES.map((zone) => ({ zone, subnetId: ref(named(template, 'AWS::EC2::Subnet', `demo-x7k2p-private-${zone}`)) })));
      expect(resolve(network.publicSubnets)).toEqual(THREE_ZONES.map((zone) => ({ zone, subnetId: ref(named(template, 'AWS::EC2::Subnet', `demo-x7k2p-public-${zone}`)) })));
    });

    test("zone IDs are the hosted zones' Id attributes; zone names are literal", () => {
      const [privateZone, localZone] = resources(template, 'AWS::Route53::HostedZone');
      expect(stack.resolve(network.privateZoneId)).toEqual({ 'Fn::GetAtt': [privateZone.id, 'Id'] });
      expect(stack.resolve(network.localZoneId)).toEqual({ 'Fn::GetAtt': [localZone.id, 'Id'] });
      expect(network.privateZoneName).toBe('demo.example.com');
      expect(network.localZoneName).toBe('demo.hypershift.local');
    });

    test('the L1 resources are exposed for escape hatches, the VPC as the default child', () => {
      expect(network.node.defaultChild).toBe(network.vpc);
      expect(stack.resolve(network.vpc.ref)).toEqual(ref(named(template, 'AWS::EC2::VPC', 'demo-x7k2p-vpc')));
      expect(stack.resolve(network.internetGateway.ref)).toEqual(ref(named(template, 'AWS::EC2::InternetGateway', 'demo-x7k2p-igw')));
      expect(stack.resolve(network.publicRouteTable.ref)).toEqual(ref(named(template, 'AWS::EC2::RouteTable', 'demo-x7k2p-public')));
      expect(stack.resolve(network.dhcpOptions.ref)).toEqual(ref(resources(template, 'AWS::EC2::DHCPOptions')[0]));
      expect(stack.resolve(network.s3Endpoint.ref)).toEqual(ref(resources(template, 'AWS::EC2::VPCEndpoint')[0]));
      expect(network.privateHostedZone.name).toBe('demo.example.com');
      expect(network.localHostedZone.name).toBe('demo.hypershift.local');
      expect(network.zoneResources.map((z) => z.zone)).toEqual(THREE_ZONES);
      const first = network.zoneResources[0];
      expect(stack.resolve(first.privateSubnet.ref)).toEqual(ref(named(template, 'AWS::EC2::Subnet', 'demo-x7k2p-private-us-east-1a')));
      expect(stack.resolve(first.publicSubnet.ref)).toEqual(ref(named(template, 'AWS::EC2::Subnet', 'demo-x7k2p-public-us-east-1a')));
      expect(stack.resolve(first.privateRouteTable.ref)).toEqual(ref(named(template, 'AWS::EC2::RouteTable', 'demo-x7k2p-private-us-east-1a')));
      expect(stack.resolve(first.natGateway!.ref)).toEqual(ref(named(template, 'AWS::EC2::NatGateway', 'demo-x7k2p-nat-us-east-1a')));
      expect(stack.resolve(first.elasticIp!.ref)).toEqual(ref(named(template, 'AWS::EC2::EIP', 'demo-x7k2p-eip-us-east-1a')));
    });

    test('with singleNatGateway, only the first zone has a NAT gateway and an Elastic IP', () => {
      const single = build({ zones: THREE_ZONES, singleNatGateway: true }).network;
      expect(single.zoneResources.map((z) => [z.natGateway !== undefined, z.elasticIp !== undefined])).toEqual([
        [true, true],
        [false, false],
        [false, false],
      ]);
    });

    test('an escape-hatch override reaches the template', () => {
      const s = new Stack(new App(), 'Infra', { env: ENV });
      const n = new HostedClusterNetwork(s, 'Network', ONE_ZONE);
      n.vpc.addPropertyOverride('InstanceTenancy', 'dedicated');
      expect(Template.fromStack(s).toJSON().Resources[s.getLogicalId(n.vpc)].Properties.InstanceTenancy).toBe('dedicated');
    });
  });

  test('matches the snapshot for three zones', () => {
    expect(build({ zones: THREE_ZONES, additionalTags: { team: 'platform' } }).template.toJSON()).toMatchSnapshot();
  });

  describe('validation', () => {
    test('accepts every zone of us-east-1, and Local Zones beside them', () => {
      expect(problems({ zones: ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1d', 'us-east-1e', 'us-east-1f', 'us-east-1-bos-1a'] })).toEqual([]);
    });

    test('accepts zones of any region in a region-agnostic stack', () => {
      expect(problems({ zones: ['us-west-2a', 'us-west-2b'] }, 'agnostic')).toEqual([]);
    });

    test('fails when vpcCidr is not a /16', () => {
      expect(problems({ vpcCidr: '10.0.0.0/20' })).toEqual([`${PATH}: vpcCidr ("10.0.0.0/20") must be an IPv4 /16, as hypershift's subnet plan (one /20 pair per zone) requires`]);
    });

    test('fails when vpcCidr is not an IPv4 CIDR', () => {
      expect(problems({ vpcCidr: 'fd00::/16' })).toEqual([`${PATH}: vpcCidr ("fd00::/16") must be an IPv4 /16, as hypershift's subnet plan (one /20 pair per zone) requires`]);
      expect(problems({ vpcCidr: '10.0.0.0' })).toEqual([`${PATH}: vpcCidr ("10.0.0.0") must be an IPv4 /16, as hypershift's subnet plan (one /20 pair per zone) requires`]);
    });

    test('fails when vpcCidr has host bits set', () => {
      expect(problems({ vpcCidr: '10.0.1.0/16' })).toEqual([`${PATH}: vpcCidr ("10.0.1.0/16") must have its host bits clear: write it as "10.0.0.0/16"`]);
    });

    test('fails when zones is empty', () => {
      expect(problems({ zones: [] })).toEqual([`${PATH}: zones ([]) must name at least one availability zone`]);
    });

    test('fails when zones name more zones than the region has', () => {
      const zones = ['us-east-2a', 'us-east-2b', 'us-east-2c', 'us-east-2d'];
      expect(problems({ zones }, { account: '123456789012', region: 'us-east-2' })).toEqual([
        `${PATH}: zones (["us-east-2a","us-east-2b","us-east-2c","us-east-2d"]) must name at most 3 availability zones, as many as us-east-2 has`,
      ]);
    });

    test("fails when a zone is not in the stack's region", () => {
      expect(problems({ zones: ['us-east-1a', 'us-west-2b', 'us-east-10a', 'us-east-1'] })).toEqual([
        `${PATH}: zones[1] ("us-west-2b") must be an availability zone of the stack's region us-east-1, such as "us-east-1a"`,
        `${PATH}: zones[2] ("us-east-10a") must be an availability zone of the stack's region us-east-1, such as "us-east-1a"`,
        `${PATH}: zones[3] ("us-east-1") must be an availability zone of the stack's region us-east-1, such as "us-east-1a"`,
      ]);
    });

    test('fails when a zone is not a zone name in a region-agnostic stack', () => {
      expect(problems({ zones: ['us-east-1a', 'east', 'US-EAST-1A'] }, 'agnostic')).toEqual([
        `${PATH}: zones[1] ("east") must be an availability zone name such as "us-east-1a"`,
        `${PATH}: zones[2] ("US-EAST-1A") must be an availability zone name such as "us-east-1a"`,
      ]);
    });

    test('fails when a zone repeats', () => {
      expect(problems({ zones: ['us-east-1a', 'us-east-1b', 'us-east-1a'] })).toEqual([`${PATH}: zones[2] ("us-east-1a") must differ from zones[0]: each zone gets one pair of subnets`]);
    });

    test('fails when zones name more than 8 zones', () => {
      const zones = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((letter) => `us-east-1${letter}`);
      expect(problems({ zones }, 'agnostic')).toEqual([
        `${PATH}: zones (["us-east-1a","us-east-1b","us-east-1c","us-east-1d","us-east-1e","us-east-1f","us-east-1g","us-east-1h","us-east-1i"]) must name at most 8 availability zones, as the /16 holds 8 pairs of /20 subnets`,
      ]);
    });

    test('fails when baseDomain is not a domain name', () => {
      const rule = 'must be a domain name such as example.com: dot-separated labels of letters, digits and "-", each at most 63 characters, at most 253 in all';
      expect(problems({ baseDomain: 'example..com' })).toEqual([`${PATH}: baseDomain ("example..com") ${rule}`]);
      expect(problems({ baseDomain: 'example.com.' })).toEqual([`${PATH}: baseDomain ("example.com.") ${rule}`]);
      expect(problems({ baseDomain: 'exa mple.com' })).toEqual([`${PATH}: baseDomain ("exa mple.com") ${rule}`]);
      const longLabel = `${'a'.repeat(64)}.com`;
      expect(problems({ baseDomain: longLabel })).toEqual([`${PATH}: baseDomain (${JSON.stringify(longLabel)}) ${rule}`]);
    });

    test('fails when baseDomainPrefix is neither "none" nor a domain name', () => {
      expect(problems({ baseDomainPrefix: 'my_apps' })).toEqual([
        `${PATH}: baseDomainPrefix ("my_apps") must be "none" (no prefix) or a domain name: dot-separated labels of letters, digits and "-", each at most 63 characters`,
      ]);
    });

    test('fails when infraId is not lower-case letters, digits and "-"', () => {
      const rule = 'must be lower-case letters, digits and "-", starting and ending with a letter or digit, at most 253 characters';
      expect(problems({ infraId: 'Demo_x7k2p' })).toEqual([`${PATH}: infraId ("Demo_x7k2p") ${rule}`]);
      expect(problems({ infraId: '-demo' })).toEqual([`${PATH}: infraId ("-demo") ${rule}`]);
      expect(problems({ infraId: '' })).toEqual([`${PATH}: infraId ("") ${rule}`]);
    });

    test('fails when clusterName is not a DNS label', () => {
      const rule = 'must be a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit';
      expect(problems({ clusterName: 'demo.cluster' })).toEqual([`${PATH}: clusterName ("demo.cluster") ${rule}`]);
      expect(problems({ clusterName: 'Demo' })).toEqual([`${PATH}: clusterName ("Demo") ${rule}`]);
    });

    test('fails when additionalTags set a tag the construct sets', () => {
      expect(problems({ additionalTags: { 'Name': 'mine', 'kubernetes.io/cluster/demo-x7k2p': 'shared', 'kubernetes.io/role/elb': '0' } })).toEqual([
        `${PATH}: additionalTags["Name"] ("mine") must not be set: the construct sets tag Name itself`,
        `${PATH}: additionalTags["kubernetes.io/cluster/demo-x7k2p"] ("shared") must not be set: the construct sets tag kubernetes.io/cluster/demo-x7k2p itself`,
        `${PATH}: additionalTags["kubernetes.io/role/elb"] ("0") must not be set: the construct sets tag kubernetes.io/role/elb itself`,
      ]);
    });

    test('fails when an additionalTags key is reserved by AWS or too long, or a value too long', () => {
      const longKey = 'k'.repeat(129);
      const longValue = 'v'.repeat(257);
      expect(problems({ additionalTags: { 'aws:cost': 'x', [longKey]: 'y', 'team': longValue } })).toEqual([
        `${PATH}: additionalTags key ("aws:cost") must be 1 to 128 characters and must not start with "aws:", which AWS reserves`,
        `${PATH}: additionalTags key (${JSON.stringify(longKey)}) must be 1 to 128 characters and must not start with "aws:", which AWS reserves`,
        `${PATH}: additionalTags["team"] (${JSON.stringify(longValue)}) must be at most 256 characters, the AWS limit for a tag value`,
      ]);
    });

    test('fails when additionalTags has more than 7 entries', () => {
      const additionalTags = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((k) => [k, '1']));
      expect(problems({ additionalTags })).toEqual([
        `${PATH}: additionalTags ({"a":"1","b":"1","c":"1","d":"1","e":"1","f":"1","g":"1","h":"1"}) must have at most 7 entries, as Route53 allows 10 tags on a hosted zone and the construct sets 3`,
      ]);
    });

    test('reports every problem at once, in one error, and creates nothing', () => {
      const stack = new Stack(new App(), 'Infra', { env: ENV });
      const attempt = () =>
        new HostedClusterNetwork(stack, 'Network', {
          infraId: 'Demo',
          clusterName: 'demo',
          baseDomain: 'example.com',
          zones: [],
          vpcCidr: '10.0.0.0/8',
        });
      expect(attempt).toThrow(
        [
          '3 problems:',
          `  - ${PATH}: infraId ("Demo") must be lower-case letters, digits and "-", starting and ending with a letter or digit, at most 253 characters`,
          `  - ${PATH}: zones ([]) must name at least one availability zone`,
          `  - ${PATH}: vpcCidr ("10.0.0.0/8") must be an IPv4 /16, as hypershift's subnet plan (one /20 pair per zone) requires`,
        ].join('\n'),
      );
      const network = stack.node.tryFindChild('Network');
      expect(network?.node.children ?? []).toEqual([]);
    });
  });
});
