import { ClusterPlatform, LabelSelectorOperator, NodePoolOptions, NodePoolPlatform } from '../../lib';
import { DNS1123_LABEL_RULE } from '../../lib/core/names';
import { newCluster, synthAppOf } from '../props';
import { findObject, synthProblems } from '../util';

function agentPool(options: NodePoolOptions): any {
  return findObject(synthAppOf(newCluster().addNodePool('workers', options)), 'NodePool');
}

function poolProblems(options: NodePoolOptions): string[] {
  return synthProblems((app) => newCluster({}, app).addNodePool('workers', options));
}

describe('ClusterPlatform.agent', () => {
  test('writes the agent namespace', () => {
    const spec = findObject(synthAppOf(newCluster()), 'HostedCluster').spec;
    expect(spec.platform).toEqual({ type: 'Agent', agent: { agentNamespace: 'hardware-inventory' } });
  });

  test("writes the agent namespace's Namespace when asked, for Agents of hosts booted by hand (no InfraEnv here)", () => {
    const objects = synthAppOf(newCluster({ platform: ClusterPlatform.agent({ agentNamespace: 'c1-agents', apiServerAddress: '192.0.2.10', createAgentNamespace: true }) }));
    expect(
      objects
        .filter((o) => o.kind === 'Namespace')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['c1-agents', 'clusters']);
    expect(
      synthAppOf(newCluster())
        .filter((o) => o.kind === 'Namespace')
        .map((o) => o.metadata.name),
    ).toEqual(['clusters']);
  });

  test('fails when the agent namespace is not a DNS-1123 label', () => {
    const problems = synthProblems((app) => newCluster({ platform: ClusterPlatform.agent({ agentNamespace: 'Hardware_Inventory', apiServerAddress: '192.0.2.10' }) }, app));
    expect(problems).toEqual([`hub/c1: platform.agentNamespace ("Hardware_Inventory") ${DNS1123_LABEL_RULE}`]);
  });
});

describe('NodePoolPlatform.agent', () => {
  test('selects agents by labels and expressions', () => {
    const spec = agentPool({
      platform: NodePoolPlatform.agent({
        matchLabels: { 'hcp.example.com/pool': 'vcluster2' },
        matchExpressions: [
          { key: 'inventory.agent-install.openshift.io/cpu-architecture', operator: LabelSelectorOperator.IN, values: ['x86_64'] },
          { key: 'hcp.example.com/retired', operator: LabelSelectorOperator.DOES_NOT_EXIST },
        ],
      }),
    }).spec;
    expect(spec.platform).toEqual({
      type: 'Agent',
      agent: {
        agentLabelSelector: {
          matchLabels: { 'hcp.example.com/pool': 'vcluster2' },
          matchExpressions: [
            { key: 'inventory.agent-install.openshift.io/cpu-architecture', operator: 'In', values: ['x86_64'] },
            { key: 'hcp.example.com/retired', operator: 'DoesNotExist' },
          ],
        },
      },
    });
  });

  test('writes no agentLabelSelector without a selector, as hcp create cluster agent; an explicitly empty one as {}', () => {
    expect(agentPool({ platform: NodePoolPlatform.agent() }).spec.platform).toEqual({ type: 'Agent', agent: {} });
    expect(agentPool({ platform: NodePoolPlatform.agent({ matchLabels: {} }) }).spec.platform).toEqual({ type: 'Agent', agent: { agentLabelSelector: {} } });
  });

  test('fails when a matchLabels key is invalid', () => {
    expect(poolProblems({ platform: NodePoolPlatform.agent({ matchLabels: { 'bad key': 'x' } }) })).toEqual([
      'hub/c1/workers: platform.matchLabels key ("bad key") must be a label key: [prefix/]name, name at most 63 characters',
    ]);
  });

  test('fails when a matchLabels value is invalid', () => {
    expect(poolProblems({ platform: NodePoolPlatform.agent({ matchLabels: { pool: 'a b' } }) })).toEqual([
      'hub/c1/workers: platform.matchLabels.pool ("a b") must be a label value: at most 63 letters, digits, "-", "_" or "."',
    ]);
  });

  test('fails when an In expression has no values', () => {
    expect(poolProblems({ platform: NodePoolPlatform.agent({ matchExpressions: [{ key: 'rack', operator: LabelSelectorOperator.IN, values: [] }] }) })).toEqual([
      'hub/c1/workers: platform.matchExpressions[rack].values ([]) must be non-empty with operator In',
    ]);
  });

  test('fails when an Exists expression has values', () => {
    expect(poolProblems({ platform: NodePoolPlatform.agent({ matchExpressions: [{ key: 'rack', operator: LabelSelectorOperator.EXISTS, values: ['r1'] }] }) })).toEqual([
      'hub/c1/workers: platform.matchExpressions[rack].values (["r1"]) must be empty with operator Exists',
    ]);
  });
});
