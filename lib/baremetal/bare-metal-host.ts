import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain, isLabelValue } from '../core/names';
import { Problems, show } from '../core/problems';
import { checkRequiredProps } from '../core/runtime-props';
import { IBmcCredentials } from './bmc-credentials';
import { parseBmcAddress } from './bmc-address';
import type { InfraEnv } from './infra-env';
import { INFRAENV_LABEL } from './infra-env-label';
import { isJsonObject } from './json-text';
import { isMacAddress, MAC_ADDRESS_RULE, normalizeMac } from './mac-address';
import { NMStateConfig, NMStateConfigOptions } from './nmstate-config';

/** The label the assisted installer puts on an Agent that came from a BareMetalHost. */
export const AGENT_BMH_LABEL = 'agent-install.openshift.io/bmh';
const BMAC = 'bmac.agent-install.openshift.io';

/** Whether Metal3 wipes disks before and after provisioning. */
export enum AutomatedCleaningMode {
  /** Keep the disks as they are (the docs' choice for agent hosts). */
  DISABLED = 'disabled',
  /** Wipe the partition tables. */
  METADATA = 'metadata',
}

/** How the host's firmware boots the discovery image. */
export enum BootMode {
  /** UEFI. */
  UEFI = 'UEFI',
  /** UEFI with Secure Boot. */
  UEFI_SECURE_BOOT = 'UEFISecureBoot',
  /** Legacy BIOS. */
  LEGACY = 'legacy',
}

/** The role an Agent takes; hosted clusters only use workers. */
export enum HostRole {
  /** A worker node. */
  WORKER = 'worker',
  /** The assisted service picks the role. */
  AUTO_ASSIGN = 'auto-assign',
}

/** How Metal3 reaches the host's baseboard management controller. */
export interface BmcOptions {
  /** `scheme://host[:port][/path]`, e.g. `redfish-virtualmedia://[fd00::1]:9000/redfish/v1/Systems/1`. */
  readonly address: string;
  /** The BMC user name and password. */
  readonly credentials: IBmcCredentials;
  /** @default false */
  readonly disableCertificateVerification?: boolean;
}

/** Hints for the disk to install on; all given ones must match. */
export interface RootDeviceHints {
  /** A device path such as `/dev/sda` or `/dev/disk/by-path/...`. @default - any */
  readonly deviceName?: string;
  /** The SCSI address, e.g. `0:0:0:0`. @default - any */
  readonly hctl?: string;
  /** @default - any */
  readonly model?: string;
  /** @default - any */
  readonly vendor?: string;
  /** @default - any */
  readonly serialNumber?: string;
  /** The smallest disk to consider, in GB. @default - any size */
  readonly minSizeGigabytes?: number;
  /** The World Wide Name. @default - any */
  readonly wwn?: string;
  /** true for spinning disks, false for SSDs. @default - either */
  readonly rotational?: boolean;
}

/** A BareMetalHost's options, as `infraEnv.addHost()` takes them. */
export interface BareMetalHostOptions {
  /** @default - the construct id */
  readonly name?: string;
  /** The host's BMC: address and credentials. */
  readonly bmc: BmcOptions;
  /** The MAC address of the NIC the host boots from. */
  readonly bootMacAddress: string;
  /** Power the host on once registered. @default true */
  readonly online?: boolean;
  /** @default AutomatedCleaningMode.DISABLED (as the docs do for agent hosts) */
  readonly automatedCleaningMode?: AutomatedCleaningMode;
  /** @default - Metal3 picks the first suitable disk */
  readonly rootDeviceHints?: RootDeviceHints;
  /** @default - the BMC's default (UEFI) */
  readonly bootMode?: BootMode;
  /** @default - none (deprecated in Metal3; kept for older hardware profiles) */
  readonly hardwareProfile?: string;
  /** The node name the host takes (`bmac.agent-install.openshift.io/hostname`). @default - from DHCP */
  readonly hostname?: string;
  /** @default - none (the Agent starts as auto-assign, which hosted clusters bind as workers) */
  readonly role?: HostRole;
  /** Extra coreos-installer arguments. @default - none */
  readonly installerArgs?: string[];
  /** An Ignition config (JSON text) for this host's installation. @default - none */
  readonly ignitionConfigOverrides?: string;
  /** Let Metal3 inspect the hardware first. The assisted installer inspects anyway. @default false */
  readonly inspect?: boolean;
  /** Static networking: an NMStateConfig for this host, selected by its InfraEnv. @default - DHCP */
  readonly networkConfig?: Omit<NMStateConfigOptions, 'name'>;
}

/** Props of BareMetalHost. */
export interface BareMetalHostProps extends BareMetalHostOptions {
  /** The InfraEnv whose discovery image the host boots. */
  readonly infraEnv: InfraEnv;
}

/**
 * A BareMetalHost (metal3.io/v1alpha1) that boots into an InfraEnv's discovery image through its
 * BMC and so becomes an Agent, with its BMC credentials Secret. Usually made by `infraEnv.addHost()`.
 */
export class BareMetalHost extends Construct {
  /** `metadata.name` of the BareMetalHost. */
  public readonly hostName: string;
  /** The namespace the host is in, its InfraEnv's. */
  public readonly namespace: string;
  /** The InfraEnv whose discovery image the host boots. */
  public readonly infraEnv: InfraEnv;
  /** The boot MAC address, lower case. */
  public readonly bootMacAddress: string;
  /** The BMC endpoint (normalised host, port and path) for finding two hosts on one BMC. */
  public readonly bmcEndpoint: string;
  /** The labels the Agent made from this host will carry, for matching NodePool selectors. */
  public readonly agentLabels: Readonly<Record<string, string>>;
  /** The BareMetalHost this construct writes (its main object), for `addJsonPatch` and the like. */
  public readonly resource: ApiObject;
  /** What `bmc.credentials` wrote (a Secret or SealedSecret); undefined for a Secret that exists already. */
  public readonly bmcSecretObject?: ApiObject;

  constructor(scope: Construct, id: string, props: BareMetalHostProps) {
    super(scope, id);
    const required = new Problems(this);
    checkRequiredProps(required, props, {
      bmc: { accepts: (v) => typeof (v as BmcOptions | undefined)?.address === 'string' && (v as BmcOptions).credentials !== undefined, expected: "the host's BMC: { address, credentials }" },
      bootMacAddress: { accepts: (v) => typeof v === 'string', expected: 'the MAC address of the NIC the host boots from' },
      infraEnv: { accepts: (v) => typeof (v as InfraEnv | undefined)?.namespace === 'string', expected: 'the InfraEnv the host boots into (use infraEnv.addHost)' },
    });
    required.throwIfAny();
    const infraEnv = props.infraEnv;
    this.infraEnv = infraEnv;
    this.hostName = props.name ?? id;
    this.namespace = infraEnv.namespace;
    this.bootMacAddress = normalizeMac(props.bootMacAddress);
    this.agentLabels = { ...infraEnv.agentLabels, [INFRAENV_LABEL]: infraEnv.infraEnvName, [AGENT_BMH_LABEL]: this.hostName };

    const problems = new Problems(this);
    problems.require(isDns1123Subdomain(this.hostName), 'name', this.hostName, DNS1123_SUBDOMAIN_RULE);
    problems.require(isLabelValue(this.hostName), 'name', this.hostName, `must also be a label value (at most 63 characters): its Agent is labelled ${AGENT_BMH_LABEL}=<name>`);
    problems.require(isMacAddress(props.bootMacAddress), 'bootMacAddress', props.bootMacAddress, MAC_ADDRESS_RULE);
    const bmc = parseBmcAddress(props.bmc.address);
    if (typeof bmc === 'string') problems.add(`bmc.address (${show(props.bmc.address)}) ${bmc}`);
    this.bmcEndpoint = typeof bmc === 'string' ? props.bmc.address : bmc.key;
    const credentials = props.bmc.credentials as unknown;
    if (typeof credentials === 'string' || typeof (credentials as IBmcCredentials)?.bind !== 'function') {
      // Never echo the value: it may be the password itself.
      const kind = credentials === null ? 'null' : typeof credentials === 'object' ? 'an object' : `a ${typeof credentials}`;
      problems.add(
        `bmc.credentials (${kind}) must be BmcCredentials.fromExistingSecret(...), fromExternalSecret(...), fromSealedSecret(...) or fromInlineValues(..., { allowSecretInOutput: true }); a plain password would end up in git`,
      );
    }
    if (props.hostname !== undefined) problems.require(isDns1123Subdomain(props.hostname), 'hostname', props.hostname, DNS1123_SUBDOMAIN_RULE);
    if (props.rootDeviceHints?.minSizeGigabytes !== undefined) {
      problems.require(
        Number.isInteger(props.rootDeviceHints.minSizeGigabytes) && props.rootDeviceHints.minSizeGigabytes > 0,
        'rootDeviceHints.minSizeGigabytes',
        props.rootDeviceHints.minSizeGigabytes,
        'must be a whole number > 0',
      );
    }
    if (props.ignitionConfigOverrides !== undefined) {
      problems.require(
        isJsonObject(props.ignitionConfigOverrides),
        'ignitionConfigOverrides',
        props.ignitionConfigOverrides.slice(0, 40),
        'must be an Ignition config as JSON text ({"ignition": {"version": "3.2.0"}, ...})',
      );
    }
    const credentialsProblem = (credentials as IBmcCredentials | undefined)?.problem;
    if (credentialsProblem) problems.add(`bmc.credentials.${credentialsProblem}`);
    // Credentials that are no BmcCredentials cannot be bound: nothing more of the host can be made.
    if (typeof (credentials as IBmcCredentials)?.bind !== 'function') problems.throwIfAny();
    problems.report();

    const secretName = (credentials as IBmcCredentials).bind(this, 'BmcSecret', `${this.hostName}-bmc-secret`, this.namespace);
    this.bmcSecretObject = this.node.tryFindChild('BmcSecret') as ApiObject | undefined;
    // A name the user gave (fromExistingSecret, ...) reaches Metal3 as it is.
    if (typeof secretName !== 'string' || !isDns1123Subdomain(secretName)) {
      problems.add(`bmc.credentials Secret name (${show(secretName)}) must name a Secret: ${DNS1123_SUBDOMAIN_RULE}`);
      problems.report();
    }
    const annotations: Record<string, string> = {};
    if (!props.inspect) annotations['inspect.metal3.io'] = 'disabled';
    if (props.hostname) annotations[`${BMAC}/hostname`] = props.hostname;
    if (props.role) annotations[`${BMAC}/role`] = props.role;
    if (props.installerArgs) annotations[`${BMAC}/installer-args`] = JSON.stringify(props.installerArgs);
    if (props.ignitionConfigOverrides) annotations[`${BMAC}/ignition-config-overrides`] = props.ignitionConfigOverrides;

    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'metal3.io/v1alpha1',
      kind: 'BareMetalHost',
      metadata: { name: this.hostName, namespace: this.namespace, labels: { [INFRAENV_LABEL]: infraEnv.infraEnvName }, annotations },
      spec: {
        online: props.online ?? true,
        automatedCleaningMode: props.automatedCleaningMode ?? AutomatedCleaningMode.DISABLED,
        bmc: { address: props.bmc.address, credentialsName: secretName, disableCertificateVerification: props.bmc.disableCertificateVerification },
        bootMACAddress: props.bootMacAddress,
        bootMode: props.bootMode,
        hardwareProfile: props.hardwareProfile,
        rootDeviceHints: props.rootDeviceHints,
      },
    });
    if (props.networkConfig) {
      new NMStateConfig(this, 'NetworkConfig', { ...props.networkConfig, name: this.hostName, infraEnv });
    }
    infraEnv._register(this);
  }
}
