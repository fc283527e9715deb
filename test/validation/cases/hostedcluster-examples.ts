// A first few HostedCluster cases; they also show the shape every case file follows.
import { HOSTED_CLUSTER, ObjectCase, withChanges } from '../object-cases';

export const CASES: ObjectCase[] = [
  {
    name: 'fails when the infraID has upper-case letters',
    object: withChanges(HOSTED_CLUSTER, { 'spec.infraID': 'Vcluster2' }),
    rejects: 'infraID must consist of lowercase alphanumeric characters',
    at: 'spec.infraID',
  },
  {
    name: 'fails when the platform type changes after creation',
    object: withChanges(HOSTED_CLUSTER, { 'spec.platform.type': 'None', 'spec.platform.agent': undefined }),
    previous: HOSTED_CLUSTER,
    rejects: 'Type is immutable',
  },
  {
    name: 'passes when the platform type stays the same on update',
    object: HOSTED_CLUSTER,
    previous: HOSTED_CLUSTER,
  },
];
