// The fleet example's output under a delivery, synthesized in memory, by folder.
import * as path from 'path';
import * as YAML from 'yaml';
import { Fleet, HcpApp, IDelivery } from '../../lib';
import { exampleFile } from '../../examples/example-file';

/** Each folder's objects (kustomization.yaml left out), in file-name order. */
export function fleetOutput(delivery: IDelivery): Map<string, any[]> {
  const app = new HcpApp({ outdir: '/nonexistent', delivery });
  Fleet.fromFile(app, exampleFile('fleet', 'fleet.yaml'));
  const folders = new Map<string, any[]>();
  for (const file of app.synthesize()) {
    if (file.path.endsWith('kustomization.yaml')) continue;
    const folder = path.posix.dirname(file.path);
    folders.set(folder, [...(folders.get(folder) ?? []), ...YAML.parseAllDocuments(file.text).map((d) => d.toJSON())]);
  }
  return folders;
}
