// The health checks as Argo CD's argocd-cm and the ArgoCD resource of argocd-operator take them: the
// keys are read back as Argo CD reads them, and the operator's rendering of the resource's fields
// gives the same argocd-cm.
import { ARGO_CD_HEALTH_CHECKS, argoCdHealthCheckConfigMapData, argoCdResourceHealthCheckSettings } from '../../lib';

/** A key of argocd-cm as argo-cd's appendResourceOverridesFromSplitKeys reads it: its type and group/kind. */
function readKey(key: string): { type: string; groupKind: string } {
  const parts = key.split('.');
  // strings.SplitN(k, ".", 4): the fourth part keeps its dots.
  const [prefix, customizations, type, ...rest] = parts;
  expect([prefix, customizations]).toEqual(['resource', 'customizations']);
  const kind = rest.join('.').split('_');
  expect(kind.length === 1 || kind.length === 2).toBe(true);
  return { type, groupKind: kind.join('/') };
}

describe('Argo CD health check settings', () => {
  test('argocd-cm: a health key per check and a useOpenLibs key where the script needs the string library, read back as Argo CD reads them', () => {
    const data = argoCdHealthCheckConfigMapData();
    expect(Object.keys(data).map(readKey)).toEqual([
      { type: 'health', groupKind: 'hypershift.openshift.io/HostedCluster' },
      { type: 'health', groupKind: 'hypershift.openshift.io/NodePool' },
      { type: 'useOpenLibs', groupKind: 'hypershift.openshift.io/NodePool' },
      { type: 'health', groupKind: 'argoproj.io/Application' },
    ]);
    expect(data['resource.customizations.useOpenLibs.hypershift.openshift.io_NodePool']).toBe('true');
    for (const check of ARGO_CD_HEALTH_CHECKS) expect(data[`resource.customizations.health.${check.group}_${check.kind}`]).toBe(check.check);
  });

  test('the ArgoCD resource: resourceHealthChecks carry only the fields that list takes, and extraConfig the useOpenLibs key; the operator renders them into the same argocd-cm', () => {
    const settings = argoCdResourceHealthCheckSettings();
    expect(settings.resourceHealthChecks.map((c) => Object.keys(c))).toEqual([
      ['group', 'kind', 'check'],
      ['group', 'kind', 'check'],
      ['group', 'kind', 'check'],
    ]);
    expect(settings.extraConfig).toEqual({ 'resource.customizations.useOpenLibs.hypershift.openshift.io_NodePool': 'true' });
    // argocd-operator getResourceHealthChecks: "resource.customizations.health." + group + "_" + kind (kind alone for the core group); then extraConfig as it is.
    const rendered: Record<string, string> = {};
    for (const c of settings.resourceHealthChecks) rendered[`resource.customizations.health.${c.group !== '' ? `${c.group}_` : ''}${c.kind}`] = c.check;
    Object.assign(rendered, settings.extraConfig);
    expect(rendered).toEqual(argoCdHealthCheckConfigMapData());
  });

  test('a check of the core group is keyed by its kind alone; no check needing the libraries gives no extraConfig', () => {
    const check = { group: '', kind: 'Service', check: 'return { status = "Healthy" }' };
    expect(argoCdHealthCheckConfigMapData([check])).toEqual({ 'resource.customizations.health.Service': check.check });
    expect(argoCdResourceHealthCheckSettings([check])).toEqual({ resourceHealthChecks: [check], extraConfig: {} });
  });
});
