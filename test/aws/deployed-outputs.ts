// What `cdk deploy --outputs-file` would write for a synthesized template, without deploying: literal
// outputs as they are, and for values CloudFormation generates (Ref / Fn::GetAtt of a VPC, subnet,
// hosted zone or KMS key) a made-up ID derived from the logical ID, in the format AWS uses.
import { createHash } from 'crypto';

export interface Template {
  readonly Resources: Record<string, { Type: string; Properties?: any }>;
  readonly Outputs?: Record<string, { Value: unknown }>;
}

/** The made-up physical ID of a resource, stable for its logical ID. */
export function fakePhysicalId(template: Template, logicalId: string, account: string, region: string): string {
  const hex = createHash('sha256').update(logicalId).digest('hex');
  const type = template.Resources[logicalId]?.Type;
  switch (type) {
    case 'AWS::EC2::VPC':
      return `vpc-${hex.slice(0, 17)}`;
    case 'AWS::EC2::Subnet':
      return `subnet-${hex.slice(0, 17)}`;
    case 'AWS::Route53::HostedZone':
      return `Z${hex.slice(0, 20).toUpperCase()}`;
    case 'AWS::KMS::Key':
      return `arn:aws:kms:${region}:${account}:key/${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
    default:
      throw new Error(`no fake physical ID for ${logicalId} (${type})`);
  }
}

function resolve(template: Template, value: unknown, account: string, region: string): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, any>;
  if (v.Ref) return fakePhysicalId(template, v.Ref, account, region);
  if (v['Fn::GetAtt']) {
    const [logicalId, attribute] = v['Fn::GetAtt'];
    if (attribute === 'Id' || attribute === 'Arn') return fakePhysicalId(template, logicalId, account, region);
    throw new Error(`cannot fake ${logicalId}.${attribute}`);
  }
  if (v['Fn::Join']) {
    const [separator, parts] = v['Fn::Join'];
    return (parts as unknown[]).map((p) => resolve(template, p, account, region)).join(separator);
  }
  throw new Error(`cannot resolve output value ${JSON.stringify(value)}`);
}

/** `{ <stackName>: { <output key>: <value> } }`, as cdk deploy writes it. */
export function simulateDeployOutputs(template: Template, stackName: string, account: string, region: string): Record<string, Record<string, string>> {
  const outputs = Object.fromEntries(Object.entries(template.Outputs ?? {}).map(([key, output]) => [key, resolve(template, output.Value, account, region)]));
  return { [stackName]: outputs };
}
