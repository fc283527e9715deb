import {
  AUTOSCALING_REFUSED_UNLESS,
  HOSTED_CLUSTER_REFUSAL_CONDITIONS,
  HostedClusterCondition,
  HyperShiftReason,
  MACHINE_SHORTAGE_REASONS,
  NODE_POOL_INPLACE_CONDITIONS,
  NODE_POOL_REFUSAL_CONDITIONS,
  NODE_POOL_ROLLOUT_CONDITIONS,
  NodePoolCondition,
  UNMANAGED_MACHINES_PLATFORM,
} from '../status/hypershift-conditions';

/** `{"A", "B"}`: a list as a Lua table. */
function luaList(items: readonly string[]): string {
  return `{${items.map((item) => JSON.stringify(item)).join(', ')}}`;
}

/** A string as a Lua literal. */
const lua = (text: string): string => JSON.stringify(text);

/**
 * What both scripts start with (Lua 5.1, as gopher-lua in Argo CD runs it): the conditions by type
 * and the readers of object-conditions.ts in Lua: `current`, `describe`, `firstCurrent`,
 * `nonEmpty`, `unreconciled` (the message, or nil).
 *
 * It calls no library: Argo CD runs a check of argocd-cm with the base and table libraries only
 * (argo-cd util/lua/lua.go, `runLuaWithResourceActionParameters`: `SkipOpenLibs` unless the check's
 * `useOpenLibs`), so `string.format` is not there. Numbers are joined with `..`, which gopher-lua
 * prints as integers when they are whole (gopher-lua value.go, `LNumber.String`): generation 3 reads "3".
 */
const PRELUDE = `local conditions = {}
if obj.status ~= nil and obj.status.conditions ~= nil then
  for _, condition in ipairs(obj.status.conditions) do
    if condition.type ~= nil then
      conditions[condition.type] = condition
    end
  end
end
local generation = 0
if obj.metadata ~= nil and obj.metadata.generation ~= nil then
  generation = obj.metadata.generation
end
local function current(c)
  return c.observedGeneration == nil or c.observedGeneration == 0 or c.observedGeneration == generation
end
local function nonEmpty(value)
  if value ~= nil and value ~= "" then
    return value
  end
  return nil
end
local function describe(c)
  local text = tostring(c.type) .. " is " .. tostring(c.status)
  if nonEmpty(c.reason) ~= nil then
    text = text .. " (" .. c.reason .. ")"
  end
  if nonEmpty(c.message) ~= nil then
    text = text .. ": " .. c.message
  end
  return text
end
local function firstCurrent(types, status)
  for _, type in ipairs(types) do
    local c = conditions[type]
    if c ~= nil and c.status == status and current(c) then
      return c
    end
  end
  return nil
end
local specImage = nil
if obj.spec ~= nil and obj.spec.release ~= nil then
  specImage = nonEmpty(obj.spec.release.image)
end
local deleting = obj.metadata ~= nil and obj.metadata.deletionTimestamp ~= nil
local function unreconciled(marker)
  local c = conditions[marker]
  if c == nil or c.observedGeneration == nil or c.observedGeneration == 0 or generation == 0 or c.observedGeneration == generation then
    return nil
  end
  return "HyperShift has not reconciled generation " .. generation .. " yet (its " .. marker .. " condition is of generation " .. c.observedGeneration .. ")"
end
`;

/**
 * hostedClusterStatus (lib/status/hosted-cluster-status.ts) in Lua, rule by rule, with the same
 * message: Healthy, Progressing (a first install once its control plane is Available is Healthy),
 * Degraded (refused, blocked, degraded), Suspended (paused).
 */
export const HOSTED_CLUSTER_HEALTH_LUA = `${PRELUDE}local version = nil
if obj.status ~= nil then
  version = obj.status.version
end
local history = {}
if version ~= nil and version.history ~= nil then
  history = version.history
end
local completed = nil
for _, entry in ipairs(history) do
  if entry.state == "Completed" then
    completed = entry
    break
  end
end
local running = nil
if completed ~= nil then
  running = nonEmpty(completed.version)
end
local desiredName = nil
local desiredImage = nil
if version ~= nil and version.desired ~= nil then
  desiredName = nonEmpty(version.desired.version) or nonEmpty(version.desired.image)
  desiredImage = nonEmpty(version.desired.image)
end
local available = conditions[${lua(HostedClusterCondition.AVAILABLE)}]
if deleting then
  local message = "deletion in progress"
  local destroyed = conditions[${lua(HostedClusterCondition.CLOUD_RESOURCES_DESTROYED)}]
  if destroyed ~= nil and destroyed.status ~= "True" then
    message = message .. ": " .. describe(destroyed)
  end
  return { status = "Progressing", message = message }
end
local refusal = firstCurrent(${luaList(HOSTED_CLUSTER_REFUSAL_CONDITIONS)}, "False")
if refusal ~= nil then
  return { status = "Degraded", message = "HyperShift refuses the spec: " .. describe(refusal) }
end
local paused = firstCurrent({${lua(HostedClusterCondition.RECONCILIATION_ACTIVE)}}, "False")
if paused ~= nil then
  return { status = "Suspended", message = "reconciliation paused: " .. describe(paused) }
end
local notReconciled = unreconciled(${lua(HostedClusterCondition.PROGRESSING)})
if notReconciled ~= nil then
  return { status = "Progressing", message = notReconciled }
end
local progressing = conditions[${lua(HostedClusterCondition.PROGRESSING)}]
if progressing ~= nil and progressing.status == "False" and progressing.reason == ${lua(HyperShiftReason.BLOCKED)} and current(progressing) then
  local message = "HyperShift does not start " .. (specImage or "the release") .. ": " .. describe(progressing)
  local upgradeable = conditions[${lua(HostedClusterCondition.CLUSTER_VERSION_UPGRADEABLE)}]
  if upgradeable ~= nil and upgradeable.status == "False" then
    message = message .. "; " .. describe(upgradeable)
  end
  return { status = "Degraded", message = message }
end
local installing = "first install of " .. (desiredName or specImage or "its release") .. ": "
local installHealth = "Progressing"
if available ~= nil and available.status == "True" then
  installing = installing .. "the control plane is available, waiting for its nodes"
  installHealth = "Healthy"
elseif available ~= nil then
  installing = installing .. describe(available)
else
  installing = installing .. "no Available condition yet"
end
if #history == 0 then
  return { status = installHealth, message = installing }
end
local taken = specImage == desiredImage
if progressing ~= nil then
  taken = progressing.status ~= "True"
end
if not taken then
  return { status = "Progressing", message = "HyperShift has not started " .. (specImage or "the release") .. " yet: status.version.desired is " .. (desiredName or "unset") }
end
if completed == nil then
  return { status = installHealth, message = installing }
end
local degraded = conditions[${lua(HostedClusterCondition.DEGRADED)}]
if degraded ~= nil and degraded.status ~= "True" then
  degraded = nil
end
if history[1].state == "Partial" then
  local message = "the control plane is upgrading from " .. (running or "an unrecorded version") .. " to " .. (nonEmpty(history[1].version) or nonEmpty(history[1].image) or "a new release")
  if degraded ~= nil then
    message = message .. "; " .. describe(degraded)
  end
  return { status = "Progressing", message = message }
end
if degraded ~= nil then
  return { status = "Degraded", message = describe(degraded) }
end
if available == nil then
  return { status = "Progressing", message = "not available: no Available condition yet" }
end
if available.status ~= "True" then
  return { status = "Progressing", message = "not available: " .. describe(available) }
end
return { status = "Healthy", message = "running " .. (running or "an unrecorded version") }
`;

/**
 * nodePoolStatus (lib/status/node-pool-status.ts) in Lua, rule by rule, with the same message:
 * Healthy (a first install too: it never holds a sync), Progressing, Degraded (refused, degraded),
 * Suspended (paused). It needs the string library (`useOpenLibs`): AllMachinesReady's reason is the
 * machines' reasons joined by commas (HyperShift nodepool_controller.go, `truncateReasons`), and only
 * `string.find` looks inside it.
 */
export const NODE_POOL_HEALTH_LUA = `${PRELUDE}local running = nil
if obj.status ~= nil then
  running = nonEmpty(obj.status.version)
end
local ready = conditions[${lua(NodePoolCondition.READY)}]
local reached = conditions[${lua(NodePoolCondition.REACHED_IGNITION_ENDPOINT)}]
local waiting = "waiting for machines"
if ready ~= nil and ready.status ~= "True" and nonEmpty(ready.message) ~= nil then
  waiting = waiting .. ": " .. ready.message
end
if reached ~= nil and reached.status == "False" then
  waiting = waiting .. "; no machine has reached the ignition endpoint yet"
end
if deleting then
  return { status = "Progressing", message = "deletion in progress" }
end
local refusal = firstCurrent(${luaList(NODE_POOL_REFUSAL_CONDITIONS)}, "False")
local autoscaling = conditions[${lua(NodePoolCondition.AUTOSCALING_ENABLED)}]
if refusal == nil and autoscaling ~= nil and autoscaling.status == "False" and autoscaling.reason ~= ${lua(AUTOSCALING_REFUSED_UNLESS)} and current(autoscaling) then
  refusal = autoscaling
end
if refusal ~= nil then
  return { status = "Degraded", message = "HyperShift refuses the spec: " .. describe(refusal) }
end
local paused = firstCurrent({${lua(NodePoolCondition.RECONCILIATION_ACTIVE)}}, "False")
if paused ~= nil then
  return { status = "Suspended", message = "reconciliation paused: " .. describe(paused) }
end
local notReconciled = unreconciled(${lua(NodePoolCondition.UPDATING_VERSION)})
if notReconciled ~= nil then
  return { status = "Progressing", message = notReconciled }
end
for _, type in ipairs(${luaList(NODE_POOL_INPLACE_CONDITIONS)}) do
  local c = conditions[type]
  if c ~= nil and c.status == "False" and c.reason == ${lua(HyperShiftReason.INPLACE_UPGRADE_FAILED)} and current(c) then
    return { status = "Degraded", message = "in-place update failed: " .. describe(c) }
  end
end
if running == nil then
  return { status = "Healthy", message = "first install, " .. waiting }
end
local machines = conditions[${lua(NodePoolCondition.ALL_MACHINES_READY)}]
if machines ~= nil and machines.status == "False" then
  for _, reason in ipairs(${luaList(MACHINE_SHORTAGE_REASONS)}) do
    if string.find(machines.reason or "", reason, 1, true) ~= nil then
      return { status = "Degraded", message = "cannot get machines: " .. describe(machines) }
    end
  end
end
if ready ~= nil and ready.status == "False" and ready.reason == ${lua(HyperShiftReason.TOO_MANY_UNHEALTHY)} then
  return { status = "Degraded", message = "auto-repair stopped: " .. describe(ready) }
end
for _, type in ipairs(${luaList(NODE_POOL_ROLLOUT_CONDITIONS)}) do
  local c = conditions[type]
  if c ~= nil and c.status == "True" then
    return { status = "Progressing", message = c.type .. ": " .. (c.message or "") }
  end
end
local platform = nil
if obj.spec ~= nil and obj.spec.platform ~= nil then
  platform = obj.spec.platform.type
end
if platform == ${lua(UNMANAGED_MACHINES_PLATFORM)} or (ready ~= nil and ready.status == "True") then
  return { status = "Healthy", message = "running " .. running }
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
  /**
   * Whether the script needs Lua's standard libraries (it calls `string.*`), which Argo CD opens for
   * a check only with `resource.customizations.useOpenLibs.<group>_<kind>: "true"` in argocd-cm
   * (argo-cd util/lua/lua.go, `runLuaWithResourceActionParameters`; without it the script has the
   * base and table libraries and fails where it calls another). The ArgoCD resource's
   * `resourceHealthChecks` cannot say it (argocd-operator controllers/argocd/configmap.go,
   * `getResourceHealthChecks`, writes only `resource.customizations.health.<group>_<kind>`): put
   * the key in its `extraConfig`.
   * @default false
   */
  readonly useOpenLibs?: boolean;
}

/**
 * The health checks to install in each management cluster's Argo CD. No argo-cd release has checks
 * for HyperShift's kinds (without these, a HostedCluster or NodePool is Healthy as soon as it
 * exists), and Argo CD 1.8 dropped the Application check an app of apps needs. With them a
 * cluster's Application holds its NodePools while its control plane upgrades, reports a refused,
 * blocked or degraded cluster or pool as Degraded at once, and never waits for machines on a first install.
 * The scripts are Lua 5.1, as Argo CD runs them (gopher-lua); the NodePool one needs `useOpenLibs`.
 */
export const ARGO_CD_HEALTH_CHECKS: readonly ArgoCdHealthCheck[] = [
  { group: 'hypershift.openshift.io', kind: 'HostedCluster', check: HOSTED_CLUSTER_HEALTH_LUA, useOpenLibs: false },
  { group: 'hypershift.openshift.io', kind: 'NodePool', check: NODE_POOL_HEALTH_LUA, useOpenLibs: true },
  { group: 'argoproj.io', kind: 'Application', check: APPLICATION_HEALTH_LUA, useOpenLibs: false },
];
