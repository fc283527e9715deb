import { kustomizations } from '../../lib/gitops/kustomization';

describe('kustomizations', () => {
  // Files in any order; folders at three depths, one holding only a sub-folder.
  const files = ['hub/b/20-secret-b.yaml', 'hub/00-namespace-hub.yaml', 'hub/a/x/80-host-h.yaml', 'hub/b/10-role-r.yaml', 'guest/30-pool.yaml', 'top.yaml'];

  test('one per folder below the root, none for the root itself', () => {
    expect(
      kustomizations(files)
        .map((k) => k.path)
        .sort(),
    ).toEqual(['guest/kustomization.yaml', 'hub/a/kustomization.yaml', 'hub/a/x/kustomization.yaml', 'hub/b/kustomization.yaml', 'hub/kustomization.yaml']);
  });

  test('each lists its files and sub-folders in name order, each name once', () => {
    const text = (folder: string) => kustomizations(files).find((k) => k.path === `${folder}/kustomization.yaml`)!.text;
    const header = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n';
    expect(text('hub')).toBe(`${header}  - 00-namespace-hub.yaml\n  - a\n  - b\n`);
    expect(text('hub/a')).toBe(`${header}  - x\n`);
    expect(text('hub/b')).toBe(`${header}  - 10-role-r.yaml\n  - 20-secret-b.yaml\n`);
  });
});
