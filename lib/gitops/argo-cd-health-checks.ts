import { HOSTED_CLUSTER_REFUSAL_CONDITIONS, MACHINE_SHORTAGE_REASONS, NODE_POOL_REFUSAL_CONDITIONS, NODE_POOL_ROLLOUT_CONDITIONS } from './hypershift-health';

/** `{"A", "B"}`: a list as a Lua table. */
function luaList(items: readonly string[]): string {
  return `{${items.map((item) => JSON.stringify(item)).join(', ')}}`;
}

/** Reads `obj.status.conditions` into `conditions`, by type. */
const CONDITIONS_BY_TYPE = `local conditions = {}
if obj.status ~= nil and obj.status.conditions ~= nil then
  for _, condition in ipairs(obj.status.conditions) do
    conditions[condition.type] = condition
  end
end
`;

/** Returns Degraded from the script when one of `listName`'s conditions is False. */
const REFUSED = (listName: string): string => `for _, type in ipairs(${listName}) do
  local condition = conditions[type]
  if condition ~= nil and condition.status == "False" then
    return { status = "Degraded", message = type .. ": " .. tostring(condition.message) }
  end
end
`;

/**
 * A HostedCluster is Degraded when HyperShift refuses its spec (see
 * HOSTED_CLUSTER_REFUSAL_CONDITIONS: waiting cannot help), or when Degraded is True before it is
 * Available and settled. It is Healthy once its Available condition is True (its control plane
 * answers) and, once it has completed a release at all, it runs the release its spec names: while
 * an upgrade is in progress (the newest history entry Partial, or a desired image the spec no
 * longer names) it is Progressing, so that a sync holds the later waves, the NodePools' above all,
 * until the control plane reports the new version. The first install counts as soon as the
 * control plane is Available: it only completes once the pools' nodes have joined.
 */
export const HOSTED_CLUSTER_HEALTH_LUA = `local refusals = ${luaList(HOSTED_CLUSTER_REFUSAL_CONDITIONS)}
${CONDITIONS_BY_TYPE}${REFUSED('refusals')}local available = conditions["Available"]
local degraded = conditions["Degraded"]
local wanted = nil
if obj.spec ~= nil and obj.spec.release ~= nil then
  wanted = obj.spec.release.image
end
local upgrading = false
if obj.status ~= nil and obj.status.version ~= nil and obj.status.version.history ~= nil then
  local installed = false
  for _, entry in ipairs(obj.status.version.history) do
    if entry.state == "Completed" then
      installed = true
    end
  end
  if installed then
    local latest = obj.status.version.history[1]
    local desired = obj.status.version.desired
    upgrading = latest.state ~= "Completed" or latest.image ~= wanted or desired == nil or desired.image ~= wanted
  end
end
local hs = {}
if available ~= nil and available.status == "True" and not upgrading then
  hs.status = "Healthy"
  hs.message = available.message
elseif degraded ~= nil and degraded.status == "True" then
  hs.status = "Degraded"
  hs.message = degraded.message
elseif available ~= nil and available.status == "True" then
  hs.status = "Progressing"
  hs.message = "the control plane is upgrading to " .. tostring(wanted)
else
  hs.status = "Progressing"
  hs.message = "waiting for the Available condition"
  if available ~= nil and available.message ~= nil then
    hs.message = available.message
  end
end
return hs
`;

/**
 * A NodePool is Degraded when HyperShift refuses its spec (NODE_POOL_REFUSAL_CONDITIONS: its
 * release, the version skew, its configuration), or when, after its first rollout, it cannot get
 * a machine (MACHINE_SHORTAGE_REASONS). It is Progressing while a rollout updates its machines
 * (UpdatingVersion, UpdatingConfig) or, after its first rollout, while it is not Ready. Before
 * its first rollout has completed it is Healthy as long as nothing is refused: a first install
 * waits for hosts to boot and machines to join, which can take an hour on bare metal, and
 * nothing in a sync should wait for that (argo-cd's own NodePool check, Progressing until Ready,
 * does; that is why the inventory comes before the NodePools in every delivery).
 */
export const NODE_POOL_HEALTH_LUA = `local refusals = ${luaList(NODE_POOL_REFUSAL_CONDITIONS)}
local shortages = ${luaList(MACHINE_SHORTAGE_REASONS)}
local rollouts = ${luaList(NODE_POOL_ROLLOUT_CONDITIONS)}
${CONDITIONS_BY_TYPE}${REFUSED('refusals')}local installed = obj.status ~= nil and obj.status.version ~= nil and obj.status.version ~= ""
local machines = conditions["AllMachinesReady"]
if installed and machines ~= nil and machines.status == "False" then
  for _, reason in ipairs(shortages) do
    if string.find(tostring(machines.reason) .. " " .. tostring(machines.message), reason, 1, true) ~= nil then
      return { status = "Degraded", message = "no machine for the pool: " .. tostring(machines.message) }
    end
  end
end
for _, type in ipairs(rollouts) do
  local condition = conditions[type]
  if condition ~= nil and condition.status == "True" then
    return { status = "Progressing", message = type .. ": " .. tostring(condition.message) }
  end
end
local ready = conditions["Ready"]
if ready ~= nil and ready.status == "True" then
  return { status = "Healthy", message = ready.message }
end
local waiting = "waiting for machines"
if ready ~= nil and ready.message ~= nil and ready.message ~= "" then
  waiting = waiting .. ": " .. ready.message
end
if not installed then
  return { status = "Healthy", message = "first install, " .. waiting }
end
return { status = "Progressing", message = waiting }
`;

/**
 * An Application is as healthy as its status says. Argo CD 1.8 dropped this check, so without it an
 * app of apps moves on to the next wave as soon as an Application exists.
 */
export const APPLICATION_HEALTH_LUA = `local hs = {}
hs.status = "Progressing"
hs.message = ""
if obj.status ~= nil and obj.status.health ~= nil then
  hs.status = obj.status.health.status
  if obj.status.health.message ~= nil then
    hs.message = obj.status.health.message
  end
end
return hs
`;

/** A health check to add to Argo CD: `resource.customizations.health.<group>_<kind>` in argocd-cm, or an entry of the ArgoCD resource's `spec.resourceHealthChecks`. */
export interface ArgoCdHealthCheck {
  /** The API group of the kind it checks. */
  readonly group: string;
  /** The kind it checks. */
  readonly kind: string;
  /** The Lua script. */
  readonly check: string;
}

/**
 * The health checks to install in each management cluster's Argo CD: they replace argo-cd's own
 * HostedCluster and NodePool checks (where a release bundles them) and restore the Application
 * check an app of apps needs. A cluster's Application then holds its NodePools while its control
 * plane upgrades, reports a refused release or pool as Degraded at once, and never waits for
 * machines on a first install.
 */
export const ARGO_CD_HEALTH_CHECKS: readonly ArgoCdHealthCheck[] = [
  { group: 'hypershift.openshift.io', kind: 'HostedCluster', check: HOSTED_CLUSTER_HEALTH_LUA },
  { group: 'hypershift.openshift.io', kind: 'NodePool', check: NODE_POOL_HEALTH_LUA },
  { group: 'argoproj.io', kind: 'Application', check: APPLICATION_HEALTH_LUA },
];
