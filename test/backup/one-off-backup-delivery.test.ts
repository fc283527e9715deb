// The re-creation case: a one-off Backup that an engine keeps applied is re-created after Velero
// deletes it at its ttl, and so starts an unplanned backup. Under every delivery mode, the app of
// the docs' procedure at its backup commit must leave the Backup out of everything an engine syncs,
// and keep it in the folder applied by hand.
import * as path from 'path';
import * as YAML from 'yaml';
import { DELIVERY_MODES } from '../server/example-outputs';
import { exampleDelivery } from '../../examples/delivery';
import { agentLabAt, ProcedureStep } from '../../examples/agent-lab-backup/procedure';

const BACKUP_FOLDER = 'hub-backup';
const BACKUP_FILE = `${BACKUP_FOLDER}/95-backup-openshift-adp_vcluster2-backup.yaml`;

/** The output of the procedure's backup commit under `mode`, file by file. */
function output(mode: string): Map<string, string> {
  const before = process.env.HCP_CDK_DELIVERY;
  process.env.HCP_CDK_DELIVERY = mode;
  try {
    const app = agentLabAt(ProcedureStep.BACKUP, { outdir: '/nonexistent', delivery: exampleDelivery() });
    return new Map(app.synthesize().map((f) => [f.path, f.text]));
  } finally {
    if (before === undefined) delete process.env.HCP_CDK_DELIVERY;
    else process.env.HCP_CDK_DELIVERY = before;
  }
}

function documents(text: string): any[] {
  return YAML.parseAllDocuments(text)
    .map((d) => d.toJSON())
    .filter((d) => d !== null);
}

/** Folders (relative to the output root) that an engine object syncs: Argo CD Application sources and Flux Kustomization paths. */
function engineFolders(files: ReadonlyMap<string, string>): string[] {
  const folders: string[] = [];
  for (const text of files.values()) {
    for (const object of documents(text)) {
      const spec = object?.spec ?? {};
      if (object.apiVersion === 'argoproj.io/v1alpha1' && object.kind === 'Application') {
        folders.push(...[spec.source, ...(spec.sources ?? [])].filter(Boolean).map((s: any) => s.path));
      }
      if (object.apiVersion === 'kustomize.toolkit.fluxcd.io/v1' && object.kind === 'Kustomization') folders.push(spec.path, ...(spec.components ?? []));
    }
  }
  // The repository keeps the output under dist/ (examples/delivery.ts).
  return folders.map((p) =>
    path.posix
      .normalize(p)
      .replace(/^(\.\/)?dist(\/|$)/, '')
      .replace(/\/$/, ''),
  );
}

/** Whether syncing `folder` (kustomize recursing through the kustomization.yaml files) reaches `target`. */
function reaches(folder: string, target: string): boolean {
  return folder === '' || folder === '.' || target === folder || target.startsWith(`${folder}/`);
}

/** Every folder a kustomization.yaml outside `except` pulls in through its resources. */
function kustomizationResources(files: ReadonlyMap<string, string>, except: string): string[] {
  return [...files]
    .filter(([file]) => path.posix.basename(file) === 'kustomization.yaml' && path.posix.dirname(file) !== except)
    .flatMap(([file, text]) => (YAML.parse(text).resources ?? []).map((r: string) => path.posix.join(path.posix.dirname(file), r)));
}

/** The objects ACM Policies place, from their ConfigurationPolicies' object templates. */
function policyObjects(files: ReadonlyMap<string, string>): any[] {
  return [...files.values()]
    .flatMap(documents)
    .filter((o) => o.kind === 'Policy')
    .flatMap((policy) => policy.spec['policy-templates'].map((t: any) => t.objectDefinition))
    .flatMap((definition) => [definition, ...(definition.spec?.['object-templates'] ?? []).map((t: any) => t.objectDefinition)]);
}

describe.each(DELIVERY_MODES)('a one-off Backup under %s delivery', (mode) => {
  const files = output(mode);

  test('is in the folder applied by hand, which its kustomization.yaml lists for oc apply -k', () => {
    expect([...files.keys()].filter((f) => f.startsWith(`${BACKUP_FOLDER}/`)).sort()).toEqual([BACKUP_FILE, `${BACKUP_FOLDER}/kustomization.yaml`]);
    expect(documents(files.get(BACKUP_FILE)!).map((o) => [o.apiVersion, o.kind, o.metadata.name])).toEqual([['velero.io/v1', 'Backup', 'vcluster2-backup']]);
    expect(YAML.parse(files.get(`${BACKUP_FOLDER}/kustomization.yaml`)!).resources).toEqual([path.posix.basename(BACKUP_FILE)]);
  });

  test('is nowhere else: no other file, and no object an ACM Policy places, is a Backup', () => {
    const backups = [...files].filter(([, text]) => documents(text).some((o) => o.kind === 'Backup')).map(([file]) => file);
    expect(backups).toEqual([BACKUP_FILE]);
    expect(policyObjects(files).filter((o) => o.kind === 'Backup')).toEqual([]);
  });

  test("no Argo CD Application or Flux Kustomization syncs its folder, while the cluster's folders are synced", () => {
    const synced = engineFolders(files);
    expect(synced.filter((folder) => reaches(folder, BACKUP_FOLDER))).toEqual([]);
    if (mode === 'argocd' || mode === 'flux') expect(synced.some((folder) => reaches(folder, 'hub/vcluster2'))).toBe(true);
    else expect(synced).toEqual([]);
  });

  test('no kustomization.yaml of another folder pulls it in', () => {
    const resources = kustomizationResources(files, BACKUP_FOLDER);
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.filter((r) => reaches(r, BACKUP_FOLDER) || reaches(BACKUP_FOLDER, r))).toEqual([]);
  });
});
