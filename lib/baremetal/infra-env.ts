import { ApiObject, Chart, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { checkPullSecret, HostedCluster } from '../core/hosted-cluster';
import { ensureNamespace } from '../core/kube-objects';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE, isDns1123Label, isDns1123Subdomain, isLabelValue, isQualifiedName } from '../core/names';
import { caBundleProblem, isHostOrAddress } from '../core/formats';
import { Problems } from '../core/problems';
import { checkRequiredProps, hasMethod } from '../core/runtime-props';
import { SshPublicKey } from '../core/ssh-public-key';
import { ISecretSource } from '../secrets/secret-source';
import { BareMetalHost, BareMetalHostOptions } from './bare-metal-host';
import { registerAgentHostChecks } from './agent-host-checks';
import { isJsonObject } from './json-text';
import { INFRAENV_LABEL } from './infra-env-label';
import { NMStateConfig } from './nmstate-config';

/** CPU architectures an InfraEnv's discovery image can be built for. */
export enum CpuArchitecture {
  /** 64-bit x86. */
  X86_64 = 'x86_64',
  /** 64-bit ARM. */
  AARCH64 = 'aarch64',
  /** IBM Power, little-endian. */
  PPC64LE = 'ppc64le',
  /** IBM Z. */
  S390X = 's390x',
}

/** The proxy the discovery image and the installed hosts use. */
export interface InfraEnvProxy {
  /** @default - none */
  readonly httpProxy?: string;
  /** @default - none */
  readonly httpsProxy?: string;
  /** Hosts, domains and CIDRs reached without the proxy. @default - none */
  readonly noProxy?: string[];
}

/** Props of InfraEnv. */
export interface InfraEnvProps {
  /** @default - the construct id */
  readonly name?: string;
  /**
   * The namespace of the InfraEnv, and so of its Agents: a hosted cluster's `agentNamespace`. One
   * shared inventory namespace for many clusters (the agent lab's `hardware-inventory`) or one per cluster.
   */
  readonly namespace: string;
  /** The pull secret the discovery image uses; bound in the InfraEnv's namespace as `pull-secret`. */
  readonly pullSecret: ISecretSource;
  /** The public key for logging in to discovered hosts as `core`. @default - none */
  readonly sshAuthorizedKey?: SshPublicKey;
  /** @default - x86_64 (the API default) */
  readonly cpuArchitecture?: CpuArchitecture;
  /**
   * Labels every Agent of this InfraEnv gets, for NodePool selectors (Agents also get
   * `infraenvs.agent-install.openshift.io: <name>`, and `agent-install.openshift.io/bmh: <host>`
   * when they come from a BareMetalHost).
   * @default - none
   */
  readonly agentLabels?: Record<string, string>;
  /** @default - no proxy */
  readonly proxy?: InfraEnvProxy;
  /** NTP servers the discovered hosts use besides DHCP's. @default - none */
  readonly additionalNtpSources?: string[];
  /** PEM certificates the discovery image trusts (a mirror registry's CA). @default - none */
  readonly additionalTrustBundle?: string;
  /** An Ignition config (JSON text) merged into the discovery image. @default - none */
  readonly ignitionConfigOverride?: string;
  /**
   * The ClusterDeployment this InfraEnv installs (`spec.clusterRef`), for the ZTP / AgentClusterInstall
   * flow. Hosted clusters take Agents through NodePools and leave it unset.
   * @default - none: the Agents serve any NodePool that selects them
   */
  readonly clusterDeploymentRef?: {
    /** The ClusterDeployment's name. */
    readonly name: string;
    /** Its namespace. */
    readonly namespace: string;
  };
  /**
   * Write the legacy `capi-provider-role` Role the docs (5.3.13.1) ask for. The HyperShift
   * Operator now creates its own Role (`capi-provider-role-<control-plane namespace>`) and
   * RoleBinding in the agent namespace and deletes the legacy one, so turn this on only for a
   * HyperShift Operator older than that change (it then needs the Role to manage the Agents).
   * @default false
   */
  readonly capiProviderRole?: boolean;
}

/** Where a value the assisted service publishes on the InfraEnv can be read once it is applied. */
export interface StatusOutput {
  /** What the value is. */
  readonly description: string;
  /** The JSONPath of the field, for `oc get -o jsonpath`. */
  readonly jsonPath: string;
  /** The command that prints it. */
  readonly command: string;
}

/**
 * An InfraEnv (agent-install.openshift.io/v1beta1): the discovery environment hosts boot into to
 * become Agents. Add hosts with `addHost` (BareMetalHosts driven through their BMC) and static
 * networking with NMStateConfig.
 */
export class InfraEnv extends Construct {
  /** `metadata.name` of the InfraEnv. */
  public readonly infraEnvName: string;
  /** The InfraEnv's namespace, where its Agents appear (a cluster's `agentNamespace`). */
  public readonly namespace: string;
  /** Labels every Agent of this InfraEnv will carry. */
  public readonly agentLabels: Readonly<Record<string, string>>;
  private folder?: string;
  /** The InfraEnv this construct writes (its main object), for `addJsonPatch` and the like. */
  public readonly resource: ApiObject;
  /** The discovery ISO's URL, published in status once the image is built. */
  public readonly isoDownloadUrl: StatusOutput;
  /** The iPXE script's URL, published in status (iPXE must support HTTPS). */
  public readonly ipxeScriptUrl: StatusOutput;

  private readonly hostList: BareMetalHost[] = [];
  private readonly networkConfigs: NMStateConfig[] = [];

  constructor(scope: Construct, id: string, props: InfraEnvProps) {
    super(scope, id);
    const required = new Problems(this);
    checkRequiredProps(required, props, {
      namespace: { accepts: (v) => typeof v === 'string', expected: 'the namespace of the InfraEnv and its Agents, e.g. "hardware-inventory"' },
      pullSecret: { accepts: hasMethod('bind'), expected: 'a secret source: SecretSource.fromExistingSecret(...) or another SecretSource factory' },
    });
    required.throwIfAny();
    this.infraEnvName = props.name ?? id;
    this.namespace = props.namespace;
    this.agentLabels = { ...props.agentLabels };
    const problems = new Problems(this);
    problems.require(isDns1123Subdomain(this.infraEnvName), 'name', this.infraEnvName, DNS1123_SUBDOMAIN_RULE);
    problems.require(isLabelValue(this.infraEnvName), 'name', this.infraEnvName, `must also be a label value (at most 63 characters): hosts select it with the ${INFRAENV_LABEL} label`);
    problems.require(isDns1123Label(this.namespace), 'namespace', this.namespace, DNS1123_LABEL_RULE);
    (props.additionalNtpSources ?? []).forEach((source, i) => {
      problems.require(isHostOrAddress(source), `additionalNtpSources[${i}]`, source, 'must be a host name or an IP address of an NTP server (no scheme, port or spaces)');
    });
    for (const [key, value] of Object.entries(this.agentLabels)) {
      problems.require(isQualifiedName(key), 'agentLabels key', key, 'must be a label key: [prefix/]name, name at most 63 characters');
      problems.require(isLabelValue(value), `agentLabels.${key}`, value, 'must be a label value: at most 63 letters, digits, "-", "_" or "."');
    }
    const ssh = props.sshAuthorizedKey;
    if (ssh?.existingSecretName !== undefined)
      problems.add(`sshAuthorizedKey (SshPublicKey.fromExistingSecret(${JSON.stringify(ssh.existingSecretName)})) must be key text: the InfraEnv embeds the key, it cannot reference a Secret`);
    else if (ssh?.problem) problems.add(ssh.problem.replace(/^sshKey/, 'sshAuthorizedKey'));
    const caProblem = props.additionalTrustBundle === undefined ? undefined : caBundleProblem('additionalTrustBundle', props.additionalTrustBundle);
    if (caProblem) problems.add(caProblem);
    if (props.ignitionConfigOverride !== undefined && !isJsonObject(props.ignitionConfigOverride)) {
      problems.add(`ignitionConfigOverride (${JSON.stringify(props.ignitionConfigOverride.slice(0, 40))}) must be an Ignition config as JSON text ({"ignition": {"version": "3.2.0"}, ...})`);
    }
    if (props.clusterDeploymentRef) {
      problems.require(isDns1123Subdomain(props.clusterDeploymentRef.name), 'clusterDeploymentRef.name', props.clusterDeploymentRef.name, DNS1123_SUBDOMAIN_RULE);
      problems.require(isDns1123Label(props.clusterDeploymentRef.namespace), 'clusterDeploymentRef.namespace', props.clusterDeploymentRef.namespace, DNS1123_LABEL_RULE);
    }
    for (const [field, url] of [
      ['proxy.httpProxy', props.proxy?.httpProxy],
      ['proxy.httpsProxy', props.proxy?.httpsProxy],
    ] as const) {
      if (url !== undefined) problems.require(/^https?:\/\/[^\s/]+/.test(url), field, url, 'must be an http:// or https:// URL');
    }

    ensureNamespace(this, this.namespace);
    const pullSecret = props.pullSecret.bind(this, 'PullSecret', {
      defaultName: 'pull-secret',
      namespace: this.namespace,
      key: '.dockerconfigjson',
      type: 'kubernetes.io/dockerconfigjson',
      checkValue: checkPullSecret,
      field: 'pullSecret',
    });
    if (pullSecret.problem) problems.add(pullSecret.problem);
    problems.report();

    if (props.capiProviderRole ?? false) ensureCapiProviderRole(this, this.namespace);
    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'agent-install.openshift.io/v1beta1',
      kind: 'InfraEnv',
      metadata: { name: this.infraEnvName, namespace: this.namespace },
      spec: Lazy.any({
        produce: () => ({
          pullSecretRef: { name: pullSecret.secretName },
          sshAuthorizedKey: ssh?.publicKey,
          cpuArchitecture: props.cpuArchitecture,
          agentLabels: Object.keys(this.agentLabels).length ? this.agentLabels : undefined,
          // NMStateConfigs carry the InfraEnv label; selecting by it keeps hosts of other InfraEnvs out.
          nmStateConfigLabelSelector: this.networkConfigs.length ? { matchLabels: { [INFRAENV_LABEL]: this.infraEnvName } } : undefined,
          proxy: props.proxy && { httpProxy: props.proxy.httpProxy, httpsProxy: props.proxy.httpsProxy, noProxy: props.proxy.noProxy?.join(',') },
          additionalNTPSources: props.additionalNtpSources,
          additionalTrustBundle: props.additionalTrustBundle,
          ignitionConfigOverride: props.ignitionConfigOverride,
          clusterRef: props.clusterDeploymentRef && { name: props.clusterDeploymentRef.name, namespace: props.clusterDeploymentRef.namespace },
        }),
      }) as unknown,
    });
    const get = `oc -n ${this.namespace} get infraenv ${this.infraEnvName} -o jsonpath=`;
    this.isoDownloadUrl = { description: 'discovery ISO download URL', jsonPath: '{.status.isoDownloadURL}', command: `${get}'{.status.isoDownloadURL}'` };
    this.ipxeScriptUrl = { description: 'iPXE script URL', jsonPath: '{.status.bootArtifacts.ipxeScript}', command: `${get}'{.status.bootArtifacts.ipxeScript}'` };
    registerAgentHostChecks(this);
  }

  /**
   * Objects of this InfraEnv are written to `<chart>/<name>/`, or `<chart>/<name>-infraenv/` when a
   * HostedCluster of the chart has the same name (its folder is `<chart>/<name>/`) and the InfraEnv
   * is not declared inside a HostedCluster. Read at synth.
   */
  public get outputFolder(): string {
    if (this.folder === undefined) {
      // An InfraEnv declared inside its cluster (as the fleet does) belongs in the cluster's folder.
      const clash =
        !this.node.scopes.some((s) => s instanceof HostedCluster) &&
        Chart.of(this)
          .node.findAll()
          .some((c) => c instanceof HostedCluster && c.clusterName === this.infraEnvName);
      this.folder = clash ? `${this.infraEnvName}-infraenv` : this.infraEnvName;
    }
    return this.folder;
  }

  /** Adds a BareMetalHost that boots into this InfraEnv through its BMC. */
  public addHost(id: string, options: BareMetalHostOptions): BareMetalHost {
    return new BareMetalHost(this, id, { ...options, infraEnv: this });
  }

  /** The BareMetalHosts of this InfraEnv. */
  public get hosts(): readonly BareMetalHost[] {
    return this.hostList;
  }

  /** @internal Called by BareMetalHost and NMStateConfig to register themselves. */
  public _register(member: BareMetalHost | NMStateConfig): void {
    if (member instanceof BareMetalHost) this.hostList.push(member);
    else this.networkConfigs.push(member);
  }
}

/** The Role of docs 5.3.13.1, once per namespace and chart: InfraEnvs may share a namespace. */
function ensureCapiProviderRole(scope: Construct, namespace: string): void {
  const chart = Chart.of(scope);
  const id = `CapiProviderRole-${namespace}`;
  if (chart.node.tryFindChild(id)) return;
  new ApiObject(chart, id, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'capi-provider-role', namespace },
    rules: [{ apiGroups: ['agent-install.openshift.io'], resources: ['agents'], verbs: ['*'] }],
  });
}
