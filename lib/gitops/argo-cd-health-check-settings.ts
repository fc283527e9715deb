import { ARGO_CD_HEALTH_CHECKS, ArgoCdHealthCheck } from './argo-cd-health-checks';

/** argocd-cm's key of `customization` for a check's kind: `resource.customizations.<customization>.<group>_<kind>`, the kind alone for the core group. */
function settingKey(customization: 'health' | 'useOpenLibs', check: ArgoCdHealthCheck): string {
  return `resource.customizations.${customization}.${check.group === '' ? check.kind : `${check.group}_${check.kind}`}`;
}

/** The useOpenLibs keys of the checks that need Lua's standard libraries. */
function useOpenLibsKeys(checks: readonly ArgoCdHealthCheck[]): Record<string, string> {
  return Object.fromEntries(checks.filter((check) => check.useOpenLibs).map((check) => [settingKey('useOpenLibs', check), 'true']));
}

/**
 * The health checks as argocd-cm's `data` holds them: `resource.customizations.health.<group>_<kind>`
 * with the script, and `resource.customizations.useOpenLibs.<group>_<kind>: "true"` where the script
 * needs Lua's standard libraries. Argo CD reads them key by key (argo-cd util/settings/settings.go,
 * `appendResourceOverridesFromSplitKeys` and `convertToOverrideKey`, at 37ee0097cf).
 */
export function argoCdHealthCheckConfigMapData(checks: readonly ArgoCdHealthCheck[] = ARGO_CD_HEALTH_CHECKS): Record<string, string> {
  const data: Record<string, string> = {};
  for (const check of checks) {
    data[settingKey('health', check)] = check.check;
    Object.assign(data, useOpenLibsKeys([check]));
  }
  return data;
}

/** An entry of the ArgoCD resource's `spec.resourceHealthChecks`. */
export interface ArgoCdResourceHealthCheck {
  /** The API group of the kind it checks ('' for the core group). */
  readonly group: string;
  /** The kind it checks. */
  readonly kind: string;
  /** The Lua script. */
  readonly check: string;
}

/** The fields of an ArgoCD resource (argocd-operator) that install health checks. */
export interface ArgoCdResourceHealthCheckSettings {
  /** For `spec.resourceHealthChecks`: group, kind and check, the fields that list takes. */
  readonly resourceHealthChecks: readonly ArgoCdResourceHealthCheck[];
  /** For `spec.extraConfig`: the useOpenLibs keys, which `resourceHealthChecks` cannot say. Empty when no check needs them. */
  readonly extraConfig: Readonly<Record<string, string>>;
}

/**
 * The health checks as the ArgoCD resource of OpenShift GitOps (argocd-operator) takes them. Its
 * `resourceHealthChecks` entries become `resource.customizations.health.<group>_<kind>` and carry
 * no more (argocd-operator controllers/argocd/configmap.go, `getResourceHealthChecks`, at
 * cf5d1c02), so a check that needs the standard libraries gets its useOpenLibs key through
 * `extraConfig`, which the operator copies into argocd-cm as it is.
 */
export function argoCdResourceHealthCheckSettings(checks: readonly ArgoCdHealthCheck[] = ARGO_CD_HEALTH_CHECKS): ArgoCdResourceHealthCheckSettings {
  return { resourceHealthChecks: checks.map(({ group, kind, check }) => ({ group, kind, check })), extraConfig: useOpenLibsKeys(checks) };
}
