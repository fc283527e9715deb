import { ApiObject, JsonPatch } from 'cdk8s';
import { HcpApp, HypershiftAddonConfig, HypershiftAddonConfigProps, ManagementCluster } from '../../lib';
import { DNS1123_LABEL_RULE } from '../../lib/core/names';
import { findObject, synthFiles, synthObjects, synthProblems, PRUNE_PROTECTION } from '../util';

function configOf(props: HypershiftAddonConfigProps): any {
  const app = new HcpApp({ outdir: '/nonexistent' });
  new HypershiftAddonConfig(new ManagementCluster(app, 'hub'), 'addon', props);
  return findObject(synthObjects(app), 'AddOnDeploymentConfig');
}

function problemsOf(props: HypershiftAddonConfigProps): string[] {
  return synthProblems((app) => new HypershiftAddonConfig(new ManagementCluster(app, 'hub'), 'addon', props));
}

describe('HypershiftAddonConfig', () => {
  test('auto-import off (docs 14.3 step 2): the add-on\'s own object, autoImportDisabled "true", protected, after MCE', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    new HypershiftAddonConfig(new ManagementCluster(app, 'hub'), 'addon', { autoImport: false });
    expect(synthFiles(app).map((f) => f.path)).toEqual(['hub/06-addondeploymentconfig-multicluster-engine_hypershift-addon-deploy-config.yaml']);
    const config = findObject(synthObjects(app), 'AddOnDeploymentConfig');
    expect(config.apiVersion).toBe('addon.open-cluster-management.io/v1alpha1');
    expect(config.metadata).toEqual({
      name: 'hypershift-addon-deploy-config',
      namespace: 'multicluster-engine',
      annotations: { 'argocd.argoproj.io/sync-wave': '6', ...PRUNE_PROTECTION },
    });
    expect(config.spec).toEqual({ customizedVariables: [{ name: 'autoImportDisabled', value: 'true' }] });
  });

  test('auto-import back on (docs 14.3 step 3): "false" is written, not the variable dropped', () => {
    expect(configOf({ autoImport: true }).spec).toEqual({ customizedVariables: [{ name: 'autoImportDisabled', value: 'false' }] });
  });

  test("metrics off (docs 2.3.2), the docs' other variables and the agent on infrastructure nodes (docs 5.4.3)", () => {
    expect(configOf({ metrics: false, variables: { hcMaxNumber: '80', hcThresholdNumber: '60' }, onInfrastructureNodes: true, namespace: 'mce' })).toEqual({
      apiVersion: 'addon.open-cluster-management.io/v1alpha1',
      kind: 'AddOnDeploymentConfig',
      metadata: expect.objectContaining({ name: 'hypershift-addon-deploy-config', namespace: 'mce' }),
      spec: {
        customizedVariables: [
          { name: 'disableMetrics', value: 'true' },
          { name: 'hcMaxNumber', value: '80' },
          { name: 'hcThresholdNumber', value: '60' },
        ],
        nodePlacement: {
          nodeSelector: { 'node-role.kubernetes.io/infra': '' },
          tolerations: [{ effect: 'NoSchedule', key: 'node-role.kubernetes.io/infra', operator: 'Exists' }],
        },
      },
    });
  });

  test('metrics on writes disableMetrics "false"', () => {
    expect(configOf({ metrics: true }).spec.customizedVariables).toEqual([{ name: 'disableMetrics', value: 'false' }]);
  });

  test('fails for every bad prop at once, naming the field, the value and what is accepted', () => {
    expect(problemsOf({ namespace: 'MCE', autoImport: 'no' as unknown as boolean, variables: { autoImportDisabled: 'true', '9lives': '1', hcMaxNumber: 80 as unknown as string } })).toEqual([
      `hub/addon: namespace ("MCE") ${DNS1123_LABEL_RULE}`,
      'hub/addon: autoImport ("no") must be true or false',
      'hub/addon: variables.autoImportDisabled ("true") is set by the autoImport prop; give it there',
      'hub/addon: variables ("9lives") must name variables with letters, digits and "_", not starting with a digit, at most 255 characters',
      'hub/addon: variables.hcMaxNumber (80) must be a string of at most 1024 characters, e.g. "80"',
    ]);
  });

  test('fails when it sets nothing', () => {
    expect(problemsOf({})).toEqual(['hub/addon: props ({}) set nothing to change in hypershift-addon-deploy-config; give autoImport, metrics, onInfrastructureNodes or variables']);
  });

  test('resource is the AddOnDeploymentConfig; a patch the CRD refuses fails the synth', () => {
    const problems = synthProblems((app) => {
      const config = new HypershiftAddonConfig(new ManagementCluster(app, 'hub'), 'addon', { autoImport: false });
      ApiObject.of(config.resource).addJsonPatch(JsonPatch.add('/spec/customizedVariables/0/name', 'auto-import'));
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/spec\.customizedVariables\[0\]\.name/);
  });
});

test('snapshot: every prop given', () => {
  expect(configOf({ autoImport: false, metrics: false, onInfrastructureNodes: true, variables: { hcMaxNumber: '80', hcThresholdNumber: '60' } })).toMatchSnapshot();
});
