import { Chart, Duration } from 'cdk8s';
import * as YAML from 'yaml';
import {
  appliedByHand,
  ClusterPlatform,
  DataProtectionApplication,
  DataProtectionApplicationProps,
  EtcdStorage,
  HcpApp,
  HostedCluster,
  HostedClusterBackup,
  HostedClusterBackupProps,
  HostedClusterRestore,
  ManagementCluster,
  PlatformType,
  Release,
  SecretEncryption,
  SecretSource,
  hostedClusterBackupResources,
} from '../../lib';
import { findObject, synthFiles, synthObjects, synthProblems } from '../util';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Vyd\n-----END CERTIFICATE-----\n';

/** Docs 7.6.5, Example 7.1: includedResources, in the docs' order. */
const DOCS_RESOURCES = [
  'sa',
  'role',
  'rolebinding',
  'pod',
  'pvc',
  'pv',
  'bmh',
  'configmap',
  'infraenv',
  'priorityclasses',
  'pdb',
  'agents',
  'hostedcluster',
  'nodepool',
  'secrets',
  'hostedcontrolplane',
  'cluster',
  'agentcluster',
  'agentmachinetemplate',
  'agentmachine',
  'machinedeployment',
  'machineset',
  'machine',
];

const STORAGE = { bucket: 'hcp-backups', region: 'us-east-1', credentials: SecretSource.fromExistingSecret('cloud-credentials') };

interface Lab {
  readonly hub: ManagementCluster;
  readonly cluster: HostedCluster;
  readonly dpa: DataProtectionApplication;
}

/** vcluster2 of the agent lab on `hub`, with its Agents in `agentNamespace`, paused or not, and a DPA. */
function lab(app: HcpApp, options: { agentNamespace?: string; paused?: boolean; dpa?: Partial<DataProtectionApplicationProps> } = {}): Lab {
  const hub = new ManagementCluster(app, 'hub');
  const paused = options.paused ?? true;
  const cluster = new HostedCluster(hub, 'vcluster2', {
    release: Release.fromVersion('4.14.10'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    platform: ClusterPlatform.agent({ agentNamespace: options.agentNamespace ?? 'hardware-inventory', apiServerAddress: '192.0.2.10' }),
    pausedUntil: paused ? 'true' : undefined,
  });
  cluster.addNodePool('workers', { name: 'vcluster2', replicas: 0, pausedUntil: paused ? 'true' : undefined });
  const dpa = new DataProtectionApplication(hub, 'oadp', { storage: STORAGE, ...options.dpa });
  return { hub, cluster, dpa };
}

/** A Schedule beside its cluster; a one-off Backup in a chart of its own, hub-backup, applied by hand. */
function declareBackup(app: HcpApp, { cluster, dpa }: Lab, props: Partial<HostedClusterBackupProps> = {}): HostedClusterBackup {
  const scope = props.schedule !== undefined ? cluster : new ManagementCluster(app, 'hub-backup');
  return new HostedClusterBackup(scope, 'backup', { cluster, dataProtection: dpa, ...props });
}

function backupObjects(props: Partial<HostedClusterBackupProps> = {}, options: Parameters<typeof lab>[1] = {}): any[] {
  const app = new HcpApp({ outdir: '/nonexistent' });
  declareBackup(app, lab(app, options), props);
  return synthObjects(app);
}

function backupProblems(props: Partial<HostedClusterBackupProps> = {}, options: Parameters<typeof lab>[1] = {}): string[] {
  return synthProblems((app) => declareBackup(app, lab(app, options), props));
}

describe('DataProtectionApplication (docs 7.6.2 and 7.6.3, "Preparing ... to use OADP")', () => {
  test('installs OADP in openshift-adp and writes the DPA with the storage location default, the node agent and the plugins', () => {
    const objects = backupObjects();
    const dpa = findObject(objects, 'DataProtectionApplication');
    expect(dpa.metadata).toMatchObject({ name: 'dpa', namespace: 'openshift-adp' });
    expect(dpa.spec).toEqual({
      backupLocations: [
        {
          name: 'default',
          velero: {
            provider: 'aws',
            default: true,
            objectStorage: { bucket: 'hcp-backups' },
            config: { region: 'us-east-1', profile: 'default' },
            credential: { name: 'cloud-credentials', key: 'cloud' },
          },
        },
      ],
      configuration: { velero: { defaultPlugins: ['openshift', 'aws', 'csi'] }, nodeAgent: { enable: true, uploaderType: 'kopia' } },
    });
    expect(findObject(objects, 'Subscription').spec).toEqual({ channel: 'stable-1.4', name: 'redhat-oadp-operator', source: 'redhat-operators', sourceNamespace: 'openshift-marketplace' });
  });

  test('points at an S3-compatible store with path-style addressing, and adds the hypershift and kubevirt plugins', () => {
    const dpa = findObject(
      backupObjects(
        { schedule: '0 1 * * *' },
        {
          dpa: { storage: { ...STORAGE, region: 'minio', s3Url: 'http://minio.minio.svc:9000', prefix: 'hcp' }, hypershiftPlugin: true, kubevirtPlugin: true },
        },
      ),
      'DataProtectionApplication',
    );
    expect(dpa.spec.backupLocations[0].velero.config).toEqual({ region: 'minio', profile: 'default', s3Url: 'http://minio.minio.svc:9000', s3ForcePathStyle: 'true' });
    expect(dpa.spec.backupLocations[0].velero.objectStorage).toEqual({ bucket: 'hcp-backups', prefix: 'hcp' });
    expect(dpa.spec.configuration.velero.defaultPlugins).toEqual(['openshift', 'aws', 'csi', 'kubevirt', 'hypershift']);
  });

  test("trusts the store's CA (objectStorage.caCert, base64 of the PEM, which is public and written as it is) and sets Velero's resourceTimeout", () => {
    const dpa = findObject(
      backupObjects(
        {},
        {
          dpa: { storage: { ...STORAGE, region: 'minio', s3Url: 'https://minio.lab.example.com', caPem: CA }, resourceTimeout: Duration.minutes(30) },
        },
      ),
      'DataProtectionApplication',
    );
    expect(dpa.spec.backupLocations[0].velero.objectStorage).toEqual({ bucket: 'hcp-backups', caCert: Buffer.from(CA).toString('base64') });
    expect(Buffer.from(dpa.spec.backupLocations[0].velero.objectStorage.caCert, 'base64').toString()).toBe(CA);
    expect(dpa.spec.backupLocations[0].velero.config).toEqual({ region: 'minio', profile: 'default', s3Url: 'https://minio.lab.example.com', s3ForcePathStyle: 'true' });
    expect(dpa.spec.configuration.velero).toEqual({ defaultPlugins: ['openshift', 'aws', 'csi'], resourceTimeout: '30m0s' });
  });

  test("skips TLS verification only when asked (config.insecureSkipTLSVerify, a string in the CRD's map)", () => {
    const dpa = findObject(backupObjects({}, { dpa: { storage: { ...STORAGE, s3Url: 'https://minio.lab.example.com', insecureSkipTLSVerify: true } } }), 'DataProtectionApplication');
    expect(dpa.spec.backupLocations[0].velero.config).toEqual({
      region: 'us-east-1',
      profile: 'default',
      s3Url: 'https://minio.lab.example.com',
      s3ForcePathStyle: 'true',
      insecureSkipTLSVerify: 'true',
    });
    expect(dpa.spec.backupLocations[0].velero.objectStorage).toEqual({ bucket: 'hcp-backups' });
    const secure = findObject(backupObjects({}, { dpa: { storage: { ...STORAGE, insecureSkipTLSVerify: false } } }), 'DataProtectionApplication');
    expect(secure.spec.backupLocations[0].velero.config).toEqual({ region: 'us-east-1', profile: 'default' });
  });

  test.each<[string, Partial<DataProtectionApplicationProps>, string[]]>([
    [
      'the CA is no PEM certificate',
      { storage: { ...STORAGE, s3Url: 'https://minio.lab.example.com', caPem: 'MIIBszCCAVmg' } },
      ['hub/oadp: storage.caPem ("MIIBszCCAVmg") must be PEM text with at least one "-----BEGIN CERTIFICATE-----" block'],
    ],
    [
      'the CA text holds a private key',
      { storage: { ...STORAGE, s3Url: 'https://minio.lab.example.com', caPem: `${CA}-----BEGIN PRIVATE KEY-----\nMC4C\n-----END PRIVATE KEY-----\n` } },
      ["hub/oadp: storage.caPem (PEM text) holds a private key; give the CA's certificates only, a key must never be in the output"],
    ],
    [
      'both a CA and skipping verification are given',
      { storage: { ...STORAGE, s3Url: 'https://minio.lab.example.com', caPem: CA, insecureSkipTLSVerify: true } },
      ['hub/oadp: storage.insecureSkipTLSVerify (true) skips the verification storage.caPem is given for; give one of them'],
    ],
    [
      'TLS settings are given for a plain http store',
      { storage: { ...STORAGE, s3Url: 'http://minio.minio.svc:9000', insecureSkipTLSVerify: true } },
      ['hub/oadp: storage.s3Url ("http://minio.minio.svc:9000") is plain http, so no TLS is verified; give an https:// URL with insecureSkipTLSVerify, or leave it out'],
    ],
    ['insecureSkipTLSVerify is a string', { storage: { ...STORAGE, insecureSkipTLSVerify: 'true' as unknown as boolean } }, ['hub/oadp: storage.insecureSkipTLSVerify ("true") must be true or false']],
    [
      'resourceTimeout is no whole number of seconds',
      { storage: STORAGE, resourceTimeout: Duration.millis(1500) },
      ['hub/oadp: resourceTimeout ("1.5s") must be a whole number of seconds, e.g. Duration.seconds(2)'],
    ],
    ['resourceTimeout is a string', { storage: STORAGE, resourceTimeout: '10m' as unknown as Duration }, ['hub/oadp: resourceTimeout ("10m") must be a Duration, e.g. Duration.minutes(30)']],
    ['resourceTimeout is zero', { storage: STORAGE, resourceTimeout: Duration.seconds(0) }, ['hub/oadp: resourceTimeout ("0s") must be at least 1s']],
  ])('fails when %s', (_, props, expected) => {
    expect(synthProblems((app) => new DataProtectionApplication(new ManagementCluster(app, 'hub'), 'oadp', { storage: STORAGE, ...props }))).toEqual(expected);
  });

  test('fails when the bucket is not an S3 bucket name', () => {
    expect(synthProblems((app) => new DataProtectionApplication(new ManagementCluster(app, 'hub'), 'oadp', { storage: { ...STORAGE, bucket: 'HCP Backups' } }))).toEqual([
      'hub/oadp: storage.bucket ("HCP Backups") must be an S3 bucket name: 3 to 63 lower-case letters, digits, "." and "-"',
    ]);
  });
});

describe('HostedClusterBackup (docs 7.6.5, "Backing up the control plane workload")', () => {
  test("writes the Backup of Example 7.1 for an Agent cluster: both namespaces, the docs' resources in their order, fs-backup and data movement", () => {
    const backup = findObject(backupObjects(), 'Backup');
    expect(backup.metadata).toMatchObject({ name: 'vcluster2-backup', namespace: 'openshift-adp', labels: { 'velero.io/storage-location': 'default' } });
    expect(backup.spec).toEqual({
      hooks: {},
      includedNamespaces: ['clusters', 'clusters-vcluster2'],
      includedResources: DOCS_RESOURCES,
      excludedResources: [],
      storageLocation: 'default',
      ttl: '2h0m0s',
      snapshotMoveData: true,
      datamover: 'velero',
      defaultVolumesToFsBackup: true,
    });
  });

  test("a one-off Backup is applied by hand: its chart is marked, and the Backup carries the engines' skip annotations", () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const declared = lab(app);
    const backup = declareBackup(app, declared);
    expect(appliedByHand(Chart.of(backup))).toBe('applying a one-off Velero Backup starts a backup, and an engine would re-create it after Velero deletes it at its ttl');
    expect(appliedByHand(declared.hub)).toBeUndefined();
    const files = synthFiles(app);
    expect(files.filter((f) => f.path.startsWith('hub-backup/')).map((f) => f.path)).toEqual(['hub-backup/95-backup-openshift-adp_vcluster2-backup.yaml']);
    expect(YAML.parse(files.find((f) => f.path.startsWith('hub-backup/'))!.text).metadata.annotations).toEqual({
      'argocd.argoproj.io/hook': 'Skip',
      'kustomize.toolkit.fluxcd.io/reconcile': 'disabled',
      'argocd.argoproj.io/sync-wave': '95',
    });
  });

  test('a Schedule stays beside its cluster, delivered like it: it is a state, not an act', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const declared = lab(app, { paused: false, dpa: { hypershiftPlugin: true } });
    const backup = declareBackup(app, declared, { schedule: '@daily' });
    expect(Chart.of(backup)).toBe(declared.hub);
    expect(appliedByHand(declared.hub)).toBeUndefined();
    expect(synthFiles(app).map((f) => f.path)).toContain('hub/vcluster2/95-schedule-openshift-adp_vcluster2-backup.yaml');
  });

  test('fails when a one-off Backup is declared in the chart of its cluster, where an engine would re-create it after its ttl', () => {
    expect(
      synthProblems((app) => {
        const { cluster, dpa } = lab(app);
        new HostedClusterBackup(cluster, 'backup', { cluster, dataProtection: dpa });
      }),
    ).toEqual([
      'hub/vcluster2/backup: scope ("hub") is the chart of hub/vcluster2, which an engine keeps applied: it would re-create the one-off Backup after Velero deletes it at its ttl, ' +
        "starting an unplanned backup; declare it in a chart of its own that is applied by hand (new ManagementCluster(app, 'hub-backup')), or give schedule for a Velero Schedule",
    ]);
  });

  test("fails when a one-off Backup's chart holds anything else, which no delivery would then apply", () => {
    expect(
      synthProblems((app) => {
        const declared = lab(app);
        const backup = declareBackup(app, declared);
        new HostedClusterRestore(Chart.of(backup), 'restore', { backup });
      }),
    ).toEqual([
      'hub-backup/backup: scope ("hub-backup") holds Restore vcluster2-restore besides Backups; a Backup\'s chart is applied by hand only (no delivery applies it), so keep everything else in other charts',
      'hub-backup/restore: scope ("hub-backup") holds Backup vcluster2-backup besides Restores; a Restore\'s chart is applied by hand only (no delivery applies it), so keep everything else in other charts',
    ]);
  });

  test("swaps the Agent inventory and CAPI objects for each platform's own", () => {
    expect(hostedClusterBackupResources(PlatformType.AGENT)).toEqual(DOCS_RESOURCES);
    const kubevirt = hostedClusterBackupResources(PlatformType.KUBEVIRT);
    expect(kubevirt.filter((r) => !DOCS_RESOURCES.includes(r))).toEqual(['kubevirtcluster', 'kubevirtmachinetemplate', 'kubevirtmachine']);
    expect(kubevirt).not.toContain('infraenv');
    expect(hostedClusterBackupResources(PlatformType.AWS)).toContain('awsmachinetemplate');
  });

  test('fails when the cluster and its NodePools are not paused first (docs 7.6.5 steps 2 and 3)', () => {
    expect(backupProblems({}, { paused: false })).toEqual([
      'hub-backup/backup: cluster (hub/vcluster2) must be paused before its backup (docs 7.6.5 steps 2 and 3): set pausedUntil "true" on hub/vcluster2, hub/vcluster2/workers, ' +
        'or give the DataProtectionApplication hypershiftPlugin, which pauses them for the backup; once the backup has completed (and any restore from it), ' +
        'remove it from the app before unpausing: its chart is applied by hand, so removing it deletes nothing',
    ]);
    expect(backupProblems({}, { paused: false, dpa: { hypershiftPlugin: true } })).toEqual([]);
  });

  test("fails when the cluster's InfraEnv shares the cluster's namespace", () => {
    expect(backupProblems({}, { agentNamespace: 'clusters' })).toEqual([
      'hub-backup/backup: cluster (hub/vcluster2) keeps its Agents and InfraEnv in "clusters", a namespace the backup includes and the restore replaces; ' +
        'docs 7.6.5 and 7.6.6 require the InfraEnv in a namespace of its own that is not deleted, so give platform.agentNamespace another namespace',
    ]);
  });

  test('writes a Schedule with the same template when the DPA has the hypershift plugin', () => {
    const schedule = findObject(backupObjects({ schedule: '0 1 * * *' }, { paused: false, dpa: { hypershiftPlugin: true } }), 'Schedule');
    expect(schedule.spec.schedule).toBe('0 1 * * *');
    expect(schedule.spec.template.includedNamespaces).toEqual(['clusters', 'clusters-vcluster2']);
    expect(schedule.spec.template.includedResources).toEqual(DOCS_RESOURCES);
    expect(schedule.spec.template).not.toHaveProperty('hooks');
  });

  test('fails when a Schedule has no hypershift plugin to pause the cluster, or a bad cron expression', () => {
    expect(backupProblems({ schedule: 'nightly' })).toEqual([
      'hub/vcluster2/backup: schedule ("nightly") must be a cron expression of five fields such as "0 1 * * *", or @daily, @every 6h ...',
      'hub/vcluster2/backup: schedule ("nightly") needs hypershiftPlugin on hub/oadp: docs 7.6.5 pause the HostedCluster and its NodePools before each backup, ' +
        'which a Schedule cannot do by hand; without the plugin take one-off Backups of a paused cluster',
    ]);
  });
});

describe('HostedClusterRestore (docs 7.6.6, "Restoring a hosted cluster by using OADP")', () => {
  function restoreObjects(backupProps: Partial<HostedClusterBackupProps> = {}, backupName?: string, options: Parameters<typeof lab>[1] = {}): any {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const { cluster, dpa } = lab(app, options);
    const backup = declareBackup(app, { hub: cluster.node.scope as ManagementCluster, cluster, dpa }, backupProps);
    new HostedClusterRestore(new ManagementCluster(app, 'hub-restore'), 'vcluster2', { backup, backupName });
    return findObject(synthObjects(app), 'Restore');
  }

  test("writes the docs' Restore of the backup in its own chart", () => {
    const restore = restoreObjects();
    expect(restore.metadata).toEqual({
      name: 'vcluster2-restore',
      namespace: 'openshift-adp',
      // Not applied by a GitOps engine: applying it starts the restore.
      annotations: { 'argocd.argoproj.io/hook': 'Skip', 'kustomize.toolkit.fluxcd.io/reconcile': 'disabled', 'argocd.argoproj.io/sync-wave': '96' },
    });
    expect(restore.spec).toEqual({
      backupName: 'vcluster2-backup',
      restorePVs: true,
      existingResourcePolicy: 'update',
      excludedResources: ['nodes', 'events', 'events.events.k8s.io', 'backups.velero.io', 'restores.velero.io', 'resticrepositories.velero.io'],
    });
  });

  test("restores a Schedule's latest backup, or the one named", () => {
    const scheduled = { schedule: '@daily' };
    const options = { dpa: { hypershiftPlugin: true } };
    expect(restoreObjects(scheduled, undefined, options).spec.scheduleName).toBe('vcluster2-backup');
    expect(restoreObjects(scheduled, 'vcluster2-backup-20261124010000', options).spec.backupName).toBe('vcluster2-backup-20261124010000');
  });

  test('fails when declared in the chart of the cluster, where applying it would overwrite the live cluster', () => {
    expect(
      synthProblems((app) => {
        const declared = lab(app);
        new HostedClusterRestore(declared.hub, 'restore', { backup: declareBackup(app, declared) });
      }),
    ).toEqual(['hub/restore: scope ("hub") must not be the chart of hub/vcluster2: applying the Restore starts it, so keep it in a chart of its own applied only for recovery']);
  });

  test("fails when the Restore's chart holds anything else, which no delivery would then apply", () => {
    expect(
      synthProblems((app) => {
        const declared = lab(app);
        const recovery = new ManagementCluster(app, 'hub-restore');
        new HostedClusterRestore(recovery, 'restore', { backup: declareBackup(app, declared) });
        new HostedCluster(recovery, 'other', {
          release: Release.fromVersion('4.17.0'),
          pullSecret: SecretSource.fromExistingSecret('pull-secret'),
          platform: ClusterPlatform.none({ apiServerAddress: '192.0.2.20' }),
        });
      }),
    ).toEqual([
      expect.stringMatching(
        /^hub-restore\/restore: scope \("hub-restore"\) holds (Namespace|Secret|HostedCluster) .* besides Restores; a Restore's chart is applied by hand only \(no delivery applies it\), so keep everything else in other charts$/,
      ),
    ]);
  });

  test('fails when an etcd snapshot is restored without the etcd encryption key Secret of the old cluster (docs 7.4.2 step 3)', () => {
    const restored = (secretEncryption?: SecretEncryption) =>
      synthProblems(
        (app) =>
          new HostedCluster(new ManagementCluster(app, 'hub'), 'vcluster2', {
            release: Release.fromVersion('4.14.10'),
            pullSecret: SecretSource.fromExistingSecret('pull-secret'),
            platform: ClusterPlatform.agent({ agentNamespace: 'hardware-inventory', apiServerAddress: '192.0.2.10' }),
            etcd: EtcdStorage.managed({ restoreSnapshotUrl: 's3://hcp-backups/vcluster2-snapshot.db' }),
            secretEncryption,
          }),
      );
    expect(restored()).toEqual([
      'hub/vcluster2: etcd.restoreSnapshotUrl (given) needs secretEncryption naming the Secret with the AES key of the cluster the snapshot was taken from (docs 7.4.2 step 3); ' +
        'without it etcd cannot decrypt the restored data',
    ]);
    expect(restored(SecretEncryption.aescbc(SecretSource.fromExistingSecret('vcluster2-etcd-encryption-key')))).toEqual([]);
  });
});

test('snapshot of OADP, a scheduled backup of vcluster2 and its restore', () => {
  const app = new HcpApp({ outdir: '/nonexistent' });
  const { cluster, dpa } = lab(app, { dpa: { hypershiftPlugin: true, kubevirtPlugin: true } });
  const backup = new HostedClusterBackup(cluster, 'backup', { cluster, dataProtection: dpa, schedule: '@daily' });
  new HostedClusterRestore(new ManagementCluster(app, 'hub-restore'), 'vcluster2', { backup });
  expect(synthObjects(app)).toMatchSnapshot();
});
