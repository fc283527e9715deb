import * as YAML from 'yaml';
import { cdk8sSynth, expectKustomizationsListTheirFolders, foldersOf, readTree, testValidAndRepeatable } from './example-synth';

/** Synthesizes `app` twice through the cdk8s CLI; the files (kustomizations left out) and a reader. */
function synthExample(app: string) {
  const first = cdk8sSynth(app);
  const second = cdk8sSynth(app);
  const tree = readTree(first.outdir);
  const files = new Map([...tree].filter(([name]) => !name.endsWith('kustomization.yaml')));
  const read = (file: string) => {
    const text = files.get(file);
    if (text === undefined) throw new Error(`${file} was not written; files: ${[...files.keys()].join(', ')}`);
    return YAML.parse(text);
  };
  return { first, second, tree, files, read };
}

/** The tests every example here shows: the expected files and no error, valid and repeatable, kustomizations that list their folders. */
function testSynthesizes(example: ReturnType<typeof synthExample>, expected: string[], title: string): void {
  const { first, second, tree, files } = example;
  test(title, () => {
    expect(first.output).not.toMatch(/Error|warning: hub/);
    expect(first.status).toBe(0);
    expect([...files.keys()].sort()).toEqual(expected);
  });

  testValidAndRepeatable(first, second, tree, expected.length);

  test('every folder has a kustomization.yaml listing its files', () => {
    expectKustomizationsListTheirFolders(tree, foldersOf(files));
  });
}

describe("the blog's lvm-hcp with its management side (examples/lvm-hcp) through the cdk8s CLI", () => {
  const example = synthExample('build/examples/lvm-hcp/main.js');
  const { read } = example;
  const expected = [
    'hub/00-namespace-clusters.yaml',
    'hub/00-namespace-openshift-cnv.yaml',
    'hub/00-namespace-openshift-storage.yaml',
    'hub/02-operatorgroup-openshift-cnv_kubevirt-hyperconverged-group.yaml',
    'hub/02-operatorgroup-openshift-storage_openshift-storage-operatorgroup.yaml',
    'hub/03-subscription-openshift-cnv_hco-operatorhub.yaml',
    'hub/03-subscription-openshift-storage_lvms.yaml',
    'hub/05-hyperconverged-openshift-cnv_kubevirt-hyperconverged.yaml',
    'hub/05-lvmcluster-openshift-storage_test-lvmcluster.yaml',
    'hub/05-multiclusterengine-multiclusterengine.yaml',
    'hub/lvm-hcp/50-hostedcluster-clusters_lvm-hcp.yaml',
    'hub/lvm-hcp/60-nodepool-clusters_lvm-hcp.yaml',
  ];

  testSynthesizes(example, expected, 'synthesizes the operators, their instances and the cluster');

  test('the LVMCluster is the blog\'s "Creating the LVMCluster" manifest', () => {
    const lvm = read('hub/05-lvmcluster-openshift-storage_test-lvmcluster.yaml');
    expect([lvm.apiVersion, lvm.metadata.name, lvm.metadata.namespace]).toEqual(['lvm.topolvm.io/v1alpha1', 'test-lvmcluster', 'openshift-storage']);
    expect(lvm.spec.storage.deviceClasses).toEqual([
      {
        name: 'vg1',
        default: true,
        fstype: 'xfs',
        deviceSelector: { optionalPaths: ['/dev/nvme1n1', '/dev/nvme0n1'] },
        nodeSelector: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'ocpvirt', operator: 'In', values: ['host'] }] }] },
        thinPoolConfig: { name: 'thin-pool-1', sizePercent: 90, overprovisionRatio: 10, chunkSizeCalculationPolicy: 'Static' },
      },
    ]);
  });

  test("the HostedCluster and NodePool carry the blog's hcp flags", () => {
    const spec = read('hub/lvm-hcp/50-hostedcluster-clusters_lvm-hcp.yaml').spec;
    expect(spec.platform).toEqual({
      type: 'KubeVirt',
      kubevirt: { baseDomainPassthrough: true, storageDriver: { type: 'Manual', manual: { storageClassMapping: [{ infraStorageClassName: 'lvms-vg1', guestStorageClassName: 'lvms-vg1' }] } } },
    });
    expect(spec.etcd.managed.storage.persistentVolume).toEqual({ size: '8Gi', storageClassName: 'gp3-csi' });
    expect([spec.controllerAvailabilityPolicy, spec.infrastructureAvailabilityPolicy]).toEqual(['HighlyAvailable', 'HighlyAvailable']);
    expect(spec.nodeSelector).toEqual({ 'node-role.kubernetes.io/infra': '' });
    const pool = read('hub/lvm-hcp/60-nodepool-clusters_lvm-hcp.yaml').spec;
    expect([pool.replicas, pool.management.autoRepair, pool.management.upgradeType, pool.nodeDrainTimeout]).toEqual([3, true, 'Replace', '1m0s']);
    expect(pool.platform.kubevirt).toEqual({
      compute: { cores: 4, memory: '16Gi' },
      rootVolume: { type: 'Persistent', persistent: { size: '120Gi', storageClass: 'lvms-vg1' } },
      networkInterfaceMultiqueue: 'Enable',
      attachDefaultNetwork: true,
      nodeSelector: { ocpvirt: 'host' },
    });
  });

  test('OpenShift Virtualization is installed with its HyperConverged', () => {
    expect(read('hub/03-subscription-openshift-cnv_hco-operatorhub.yaml').spec.name).toBe('kubevirt-hyperconverged');
    expect(read('hub/05-hyperconverged-openshift-cnv_kubevirt-hyperconverged.yaml').apiVersion).toBe('hco.kubevirt.io/v1beta1');
  });
});

describe('a nightly backup of the agent lab with its restore (examples/agent-lab-backup) through the cdk8s CLI', () => {
  const { first, second, tree, files, read } = synthExample('build/examples/agent-lab-backup/main.js');
  const expected = [
    'hub-restore/96-restore-openshift-adp_vcluster2-restore.yaml',
    'hub/00-namespace-clusters.yaml',
    'hub/00-namespace-hardware-inventory.yaml',
    'hub/00-namespace-openshift-adp.yaml',
    'hub/02-operatorgroup-openshift-adp_oadp-operator-group.yaml',
    'hub/03-subscription-openshift-adp_redhat-oadp-operator.yaml',
    'hub/06-dataprotectionapplication-openshift-adp_dpa.yaml',
    'hub/hardware-inventory/45-infraenv-hardware-inventory_hardware-inventory.yaml',
    'hub/vcluster2/20-secret-clusters_vcluster2-ssh-key.yaml',
    'hub/vcluster2/50-hostedcluster-clusters_vcluster2.yaml',
    'hub/vcluster2/60-nodepool-clusters_vcluster2.yaml',
    'hub/vcluster2/95-schedule-openshift-adp_vcluster2-backup.yaml',
  ];

  test('synthesizes OADP, the cluster with its Schedule, and the Restore in a folder of its own', () => {
    expect(first.output).not.toMatch(/Error/);
    expect(first.status).toBe(0);
    expect([...files.keys()].sort()).toEqual(expected);
  });

  testValidAndRepeatable(first, second, tree, expected.length);

  test('every folder has a kustomization.yaml listing its files', () => {
    expectKustomizationsListTheirFolders(tree, foldersOf(files));
  });

  test('the Schedule backs up both namespaces of vcluster2 nightly with the docs 7.6.5 template, and the DPA pauses it through the hypershift plugin', () => {
    const schedule = read('hub/vcluster2/95-schedule-openshift-adp_vcluster2-backup.yaml');
    expect(schedule.spec.schedule).toBe('0 1 * * *');
    expect(schedule.spec.template).toMatchObject({
      includedNamespaces: ['clusters', 'clusters-vcluster2'],
      storageLocation: 'default',
      ttl: '168h0m0s',
      snapshotMoveData: true,
      datamover: 'velero',
      defaultVolumesToFsBackup: true,
    });
    expect(schedule.spec.template.includedNamespaces).not.toContain('hardware-inventory');
    expect(read('hub/06-dataprotectionapplication-openshift-adp_dpa.yaml').spec.configuration.velero.defaultPlugins).toContain('hypershift');
  });

  test.each(['argocd', 'flux'] as const)("under %s, no engine object applies the restore folder; the hub's folders are delivered", (mode) => {
    const delivered = cdk8sSynth('build/examples/agent-lab-backup/main.js', mode);
    expect(delivered.status).toBe(0);
    const engineObjects = [...readTree(delivered.outdir)].filter(([name]) => name.startsWith(`${mode}/`)).map(([, text]) => YAML.parse(text));
    const paths = engineObjects.filter((o) => o?.apiVersion === 'argoproj.io/v1alpha1' || o?.apiVersion === 'kustomize.toolkit.fluxcd.io/v1').map((o) => o.spec.path ?? o.spec.source?.path);
    expect(paths.some((p) => /hub-restore/.test(p))).toBe(false);
    expect(paths.some((p) => /hub\/vcluster2$|^dist\/hub$/.test(p))).toBe(true);
  });

  test("the Restore takes the schedule's latest backup, as docs 7.6.6 restore it", () => {
    expect(read('hub-restore/96-restore-openshift-adp_vcluster2-restore.yaml').spec).toEqual({
      scheduleName: 'vcluster2-backup',
      restorePVs: true,
      existingResourcePolicy: 'update',
      excludedResources: ['nodes', 'events', 'events.events.k8s.io', 'backups.velero.io', 'restores.velero.io', 'resticrepositories.velero.io'],
    });
  });
});

describe("the blog's KubeVirt hub on AWS built from scratch (examples/kubevirt-hub-aws) through the cdk8s CLI", () => {
  const example = synthExample('build/examples/kubevirt-hub-aws/main.js');
  const { tree, files, read } = example;
  const expected = [
    'hub/00-namespace-clusters.yaml',
    'hub/00-namespace-multicluster-engine.yaml',
    'hub/00-namespace-openshift-cnv.yaml',
    'hub/00-namespace-openshift-storage.yaml',
    'hub/01-ingresscontroller-openshift-ingress-operator_default.yaml',
    'hub/01-machineset-openshift-machine-api_ocp-cluster-h5ffp-metal-us-east-2a.yaml',
    'hub/01-machineset-openshift-machine-api_ocp-cluster-h5ffp-metal-us-east-2b.yaml',
    'hub/01-machineset-openshift-machine-api_ocp-cluster-h5ffp-metal-us-east-2c.yaml',
    'hub/02-operatorgroup-multicluster-engine_multicluster-engine.yaml',
    'hub/02-operatorgroup-openshift-cnv_openshift-cnv-b8xkq.yaml',
    'hub/02-operatorgroup-openshift-storage_openshift-storage-9fd2w.yaml',
    'hub/03-subscription-multicluster-engine_multicluster-engine.yaml',
    'hub/03-subscription-openshift-cnv_kubevirt-hyperconverged.yaml',
    'hub/03-subscription-openshift-storage_lvms-operator.yaml',
    'hub/05-hyperconverged-openshift-cnv_kubevirt-hyperconverged.yaml',
    'hub/05-lvmcluster-openshift-storage_lvmcluster.yaml',
    'hub/05-multiclusterengine-multiclusterengine.yaml',
    'hub/06-addondeploymentconfig-multicluster-engine_hypershift-addon-deploy-config.yaml',
    'hub/metal-hcp/50-hostedcluster-clusters_metal-hcp.yaml',
    'hub/metal-hcp/60-nodepool-clusters_metal-hcp.yaml',
  ];

  testSynthesizes(example, expected, "synthesizes the machines, the operators, their instances, the hub's settings and the cluster");

  test('MCE from scratch: an OwnNamespace OperatorGroup and the multicluster-engine Subscription before the MultiClusterEngine', () => {
    expect(read('hub/02-operatorgroup-multicluster-engine_multicluster-engine.yaml').spec).toEqual({ targetNamespaces: ['multicluster-engine'] });
    expect(read('hub/03-subscription-multicluster-engine_multicluster-engine.yaml').spec).toEqual({
      channel: 'stable-2.7',
      name: 'multicluster-engine',
      source: 'redhat-operators',
      sourceNamespace: 'openshift-marketplace',
    });
    expect(read('hub/05-multiclusterengine-multiclusterengine.yaml').spec.overrides.components).toEqual([
      { name: 'hypershift', enabled: true },
      { name: 'hypershift-local-hosting', enabled: true },
    ]);
  });

  test("the console's LVM Storage and OpenShift Virtualization installs are adopted under their names: one Subscription and OperatorGroup each", () => {
    const subscriptions = [...files.keys()].filter((f) => f.includes('-subscription-'));
    expect(subscriptions.map((f) => read(f).metadata.name).sort()).toEqual(['kubevirt-hyperconverged', 'lvms-operator', 'multicluster-engine']);
    expect(read('hub/03-subscription-openshift-storage_lvms-operator.yaml').spec.name).toBe('lvms-operator');
    expect(read('hub/03-subscription-openshift-cnv_kubevirt-hyperconverged.yaml').spec.name).toBe('kubevirt-hyperconverged');
    expect(read('hub/02-operatorgroup-openshift-storage_openshift-storage-9fd2w.yaml').spec).toEqual({ targetNamespaces: ['openshift-storage'] });
  });

  test("the bare-metal workers are the blog's MachineSets: m5.metal in each zone, labelled ocpvirt=host, with the LVM disk", () => {
    for (const zone of ['us-east-2a', 'us-east-2b', 'us-east-2c']) {
      const set = read(`hub/01-machineset-openshift-machine-api_ocp-cluster-h5ffp-metal-${zone}.yaml`);
      const value = set.spec.template.spec.providerSpec.value;
      expect([value.instanceType, value.placement.availabilityZone, value.ami.id]).toEqual(['m5.metal', zone, 'ami-08bb6907b96d2a024']);
      expect(set.spec.template.spec.metadata.labels).toEqual({ ocpvirt: 'host' });
      expect(value.blockDevices[1]).toEqual({ deviceName: '/dev/xvdb', ebs: { encrypted: true, iops: 10000, volumeSize: 1000, volumeType: 'gp3' } });
    }
  });

  test('the hub admits wildcard routes, which the cluster without a base domain needs (docs 3.3.1.1)', () => {
    expect(read('hub/01-ingresscontroller-openshift-ingress-operator_default.yaml').spec).toEqual({ routeAdmission: { wildcardPolicy: 'WildcardsAllowed' } });
    const cluster = read('hub/metal-hcp/50-hostedcluster-clusters_metal-hcp.yaml');
    expect(cluster.spec.platform.kubevirt.baseDomainPassthrough).toBe(true);
  });

  test('auto-import off then on (docs 14.3): HCP_AUTO_IMPORT=off writes autoImportDisabled "true", on writes "false", and nothing else changes', () => {
    const file = 'hub/06-addondeploymentconfig-multicluster-engine_hypershift-addon-deploy-config.yaml';
    const off = read(file);
    expect(off).toEqual({
      apiVersion: 'addon.open-cluster-management.io/v1alpha1',
      kind: 'AddOnDeploymentConfig',
      metadata: expect.objectContaining({ name: 'hypershift-addon-deploy-config', namespace: 'multicluster-engine' }),
      spec: { customizedVariables: [{ name: 'autoImportDisabled', value: 'true' }] },
    });
    process.env.HCP_AUTO_IMPORT = 'on';
    let on: ReturnType<typeof cdk8sSynth>;
    try {
      on = cdk8sSynth('build/examples/kubevirt-hub-aws/main.js');
    } finally {
      delete process.env.HCP_AUTO_IMPORT;
    }
    expect(on.status).toBe(0);
    const onTree = readTree(on.outdir);
    expect(YAML.parse(onTree.get(file)!)).toEqual({ ...off, spec: { customizedVariables: [{ name: 'autoImportDisabled', value: 'false' }] } });
    const changed = [...onTree.keys()].filter((f) => onTree.get(f) !== tree.get(f));
    expect(changed).toEqual([file]);
  });

  test("under ACM delivery, the cluster is imported by exactly one owner: hcp-cdk with the add-on's import off (docs 14.2), the add-on with it on", () => {
    const imports = (autoImport: 'on' | 'off') => {
      process.env.HCP_AUTO_IMPORT = autoImport;
      try {
        const synth = cdk8sSynth('build/examples/kubevirt-hub-aws/main.js', 'acm');
        expect(synth.status).toBe(0);
        return [...readTree(synth.outdir).keys()].filter((f) => /managedcluster|klusterletaddonconfig/.test(f)).sort();
      } finally {
        delete process.env.HCP_AUTO_IMPORT;
      }
    };
    expect(imports('off')).toEqual(['hub/metal-hcp/55-managedcluster-metal-hcp.yaml', 'hub/metal-hcp/56-klusterletaddonconfig-metal-hcp_metal-hcp.yaml']);
    expect(imports('on')).toEqual([]);
  });
});
