import * as path from 'path';
import { ApiObject } from 'cdk8s';
import * as YAML from 'yaml';
import { HcpApp, SYNC_WAVE_ANNOTATION } from '../../lib';
import { renderApiObject } from '../../lib/core/render-object';
import { cdk8sSynth, hcpCdkValidate, readTree } from './example-synth';
import { ROOT } from '../util';

const EXAMPLE = 'build/examples/guest-workloads/main.js';
const GUEST_FILES = [
  'apps1-guest/00-namespace-hello.yaml',
  'apps1-guest/20-configmap-hello_hello-content.yaml',
  'apps1-guest/40-deployment-hello_hello.yaml',
  'apps1-guest/40-service-hello_hello.yaml',
];

/** The example's app, taken at its synth() call instead of writing it out. */
function exampleApp(): HcpApp {
  let captured: HcpApp | undefined;
  const synth = jest.spyOn(HcpApp.prototype, 'synth').mockImplementation(function capture(this: HcpApp) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- synth() is where the app an example builds can be taken
    captured = this;
  });
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an example runs when loaded: by its path, at this moment
    require(path.join(ROOT, EXAMPLE));
  } finally {
    synth.mockRestore();
  }
  if (!captured) throw new Error(`${EXAMPLE} did not call synth()`);
  return captured;
}

describe('guest workloads written with cdk8s-plus-28 (examples/guest-workloads) through the cdk8s CLI', () => {
  const first = cdk8sSynth(EXAMPLE);
  const second = cdk8sSynth(EXAMPLE);
  const tree = readTree(first.outdir);
  const files = new Map([...tree].filter(([name]) => !name.endsWith('kustomization.yaml')));
  const read = (file: string) => YAML.parse(files.get(file)!);

  test('synthesizes the hosted cluster on the hub and the workload in its guest folder', () => {
    expect(first.output).not.toMatch(/Error/);
    expect(first.status).toBe(0);
    expect([...files.keys()].sort()).toEqual([...GUEST_FILES, 'hub/00-namespace-clusters.yaml', 'hub/apps1/50-hostedcluster-clusters_apps1.yaml', 'hub/apps1/60-nodepool-clusters_apps1-workers.yaml']);
  });

  test('every object passes hcp-cdk validate, the built-in kinds against the Kubernetes 1.28 types', () => {
    const result = hcpCdkValidate(first.outdir);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(new RegExp(`^hcp-cdk validate: 7 objects in ${tree.size} files, 0 problems`));
    expect(result.status).toBe(0);
  });

  test('re-synth is byte-identical', () => {
    expect(second.status).toBe(0);
    expect(readTree(second.outdir)).toEqual(tree);
  });

  test('the workload is only in the guest folder, and the guest folder holds only the workload', () => {
    const hello = [...files].filter(([, text]) => /^ {2}(name|namespace): hello(-content)?$/m.test(text)).map(([name]) => name);
    expect(hello.sort()).toEqual(GUEST_FILES);
    expect([...files.keys()].filter((f) => f.startsWith('apps1-guest/'))).toEqual(GUEST_FILES);
  });

  test('kplus objects are ranked and get sync waves like every other object: Namespace, then ConfigMap, then Deployment and Service', () => {
    const waves = GUEST_FILES.map((file) => [read(file).kind, read(file).metadata.annotations[SYNC_WAVE_ANNOTATION]]);
    expect(waves).toEqual([
      ['Namespace', '0'],
      ['ConfigMap', '20'],
      ['Deployment', '40'],
      ['Service', '40'],
    ]);
    expect(YAML.parse(tree.get('apps1-guest/kustomization.yaml')!).resources).toEqual(GUEST_FILES.map((f) => f.slice('apps1-guest/'.length)));
  });

  test('the Deployment serves the ConfigMap with the resources and mounts the example sets', () => {
    const deployment = read('apps1-guest/40-deployment-hello_hello.yaml');
    expect(deployment.metadata).toEqual({ name: 'hello', namespace: 'hello', annotations: { [SYNC_WAVE_ANNOTATION]: '40' } });
    expect(deployment.spec.replicas).toBe(2);
    const pod = deployment.spec.template.spec;
    expect(pod.containers).toHaveLength(1);
    const container = pod.containers[0];
    expect(container.image).toBe('docker.io/nginxinc/nginx-unprivileged:1.27-alpine');
    expect(container.imagePullPolicy).toBe('IfNotPresent');
    expect(container.ports).toEqual([{ containerPort: 8080 }]);
    expect(container.resources).toEqual({ limits: { cpu: '200m', memory: '128Mi' }, requests: { cpu: '50m', memory: '32Mi' } });
    expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, privileged: false, readOnlyRootFilesystem: true, runAsNonRoot: true });
    expect(container.volumeMounts).toEqual([
      { mountPath: '/usr/share/nginx/html', name: 'configmap-hello-content' },
      { mountPath: '/tmp', name: 'tmp' },
    ]);
    expect(pod.volumes).toEqual([
      { configMap: { name: 'hello-content' }, name: 'configmap-hello-content' },
      { emptyDir: {}, name: 'tmp' },
    ]);
    expect(read('apps1-guest/20-configmap-hello_hello-content.yaml').data['index.html']).toMatch(/^<!doctype html>/);
  });

  test("the Service selects the Deployment's pods, by a label stable across synths, and targets the container port", () => {
    const deployment = read('apps1-guest/40-deployment-hello_hello.yaml');
    const service = read('apps1-guest/40-service-hello_hello.yaml');
    expect(service.spec.type).toBe('ClusterIP');
    expect(service.spec.ports).toEqual([{ port: 80, targetPort: 8080 }]);
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    expect(deployment.spec.template.metadata.labels).toEqual(deployment.spec.selector.matchLabels);
    expect(Object.keys(service.spec.selector)).toEqual(['cdk8s.io/metadata.addr']);
  });

  test('the hub gets the hosted cluster only; the secrets report names the two Secrets it reads', () => {
    expect(read('hub/apps1/50-hostedcluster-clusters_apps1.yaml').spec.platform.type).toBe('KubeVirt');
    expect(first.output).toContain(
      [
        '2 Secrets to create yourself (the output references them; nothing in it makes them):',
        '  hub: clusters/apps1-etcd-encryption-key (key) for hub/apps1',
        '  hub: clusters/pull-secret (.dockerconfigjson) for hub/apps1',
      ].join('\n'),
    );
  });
});

describe('guest workloads under the other delivery modes', () => {
  test.each(['argocd', 'flux', 'acm'])('%s: synthesizes and validates clean', (mode) => {
    const synth = cdk8sSynth(EXAMPLE, mode);
    expect(synth.status).toBe(0);
    const result = hcpCdkValidate(synth.outdir);
    expect(result.stdout).toMatch(/ 0 problems/);
    expect(result.status).toBe(0);
    const tree = readTree(synth.outdir);
    // ACM carries the guest objects inside Policies on the hub; the others write the guest folder.
    if (mode === 'acm') {
      const resources = YAML.parse(tree.get('hub/policies/40-policy-hcp-policies_apps1-guest-resources.yaml')!);
      expect(JSON.stringify(resources)).toContain('"kind":"Deployment"');
    } else {
      expect([...tree.keys()].filter((f) => f.startsWith('apps1-guest/') && !f.endsWith('kustomization.yaml'))).toEqual(GUEST_FILES);
    }
  });
});

describe('how cdk8s-plus-28 objects render', () => {
  const app = exampleApp();
  const plus = app.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject && c.chart.node.id === 'apps1-guest');

  test('they are subclasses of ApiObject (KubeDeployment, ...), so synth renders them with toJson, not the fast path', () => {
    expect(plus.map((o) => o.constructor.name).sort()).toEqual(['KubeConfigMap', 'KubeDeployment', 'KubeNamespace', 'KubeService']);
    for (const object of plus) {
      const toJson = jest.spyOn(object, 'toJson');
      const json = renderApiObject(object);
      expect([object.kind, toJson.mock.calls.length]).toEqual([object.kind, 1]);
      expect(json).toEqual(object.toJson());
      toJson.mockRestore();
    }
  });

  test("the hub's own objects still take the fast path", () => {
    const cluster = app.node.findAll().find((c): c is ApiObject => c instanceof ApiObject && c.kind === 'HostedCluster')!;
    const toJson = jest.spyOn(cluster, 'toJson');
    renderApiObject(cluster);
    expect(toJson).not.toHaveBeenCalled();
  });
});
