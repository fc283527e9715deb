import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems } from '../core/problems';
import type { InfraEnv } from './infra-env';
import { INFRAENV_LABEL } from './infra-env-label';
import { isMacAddress, MAC_ADDRESS_RULE } from './mac-address';
import { checkNMStateAddresses, NMStateAddress } from './nmstate-addresses';

/** A NIC named in the nmstate config, found on the host by its MAC address. */
export interface NMStateInterface {
  /** The name the nmstate config uses (renamed to the real device on the host). */
  readonly name: string;
  /** The NIC's MAC address. */
  readonly macAddress: string;
}

/** An NMStateConfig's options, as `infraEnv.addHost()` takes them. */
export interface NMStateConfigOptions {
  /** @default - the construct id */
  readonly name?: string;
  /** At least one; the assisted installer matches a host by any of these MAC addresses. */
  readonly interfaces: NMStateInterface[];
  /** The nmstate document (interfaces, routes, dns-resolver), as it would be written in YAML. */
  readonly config: Record<string, unknown>;
}

/** Props of NMStateConfig. */
export interface NMStateConfigProps extends NMStateConfigOptions {
  /** The InfraEnv whose discovery image carries the config. */
  readonly infraEnv: InfraEnv;
}

/**
 * Static networking for one host (agent-install.openshift.io/v1beta1 NMStateConfig), baked into
 * the discovery image of the InfraEnv that selects it by the `infraenvs.agent-install.openshift.io` label.
 */
export class NMStateConfig extends Construct {
  /** `metadata.name` of the NMStateConfig. */
  public readonly configName: string;
  /** The MAC addresses of its interfaces, lower case. */
  public readonly macAddresses: readonly string[];
  /** The static addresses the config gives the host's interfaces (its node addresses). */
  public readonly staticAddresses: readonly NMStateAddress[];
  /** The NMStateConfig this construct writes (its main object), for `addJsonPatch` and the like. */
  public readonly resource: ApiObject;

  constructor(scope: Construct, id: string, props: NMStateConfigProps) {
    super(scope, id);
    this.configName = props.name ?? id;
    this.macAddresses = props.interfaces.map((i) => i.macAddress);
    const problems = new Problems(this);
    problems.require(isDns1123Subdomain(this.configName), 'name', this.configName, DNS1123_SUBDOMAIN_RULE);
    problems.require(props.interfaces.length > 0, 'interfaces', props.interfaces, 'must name at least one NIC, by which the host is recognised');
    props.interfaces.forEach((nic, i) => {
      problems.require(isMacAddress(nic.macAddress), `interfaces[${i}].macAddress`, nic.macAddress, MAC_ADDRESS_RULE);
      problems.require(/^[A-Za-z0-9._-]{1,15}$/.test(nic.name), `interfaces[${i}].name`, nic.name, 'must be a Linux interface name: 1-15 letters, digits, ".", "_" or "-"');
    });
    const declared = props.config.interfaces;
    if (declared !== undefined && !Array.isArray(declared)) problems.add(`config.interfaces (${JSON.stringify(declared).slice(0, 60)}) must be a list of nmstate interfaces`);
    const configured = new Set((Array.isArray(declared) ? (declared as { name?: string }[]) : []).map((i) => i.name));
    for (const nic of props.interfaces) {
      if (configured.size > 0 && !configured.has(nic.name))
        problems.add(`interfaces: ${JSON.stringify(nic.name)} does not appear in config.interfaces (${[...configured].map((n) => JSON.stringify(n)).join(', ')}); each listed NIC must be configured`);
    }
    this.staticAddresses = checkNMStateAddresses(props.config, problems.within('config'));
    problems.report();

    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'agent-install.openshift.io/v1beta1',
      kind: 'NMStateConfig',
      metadata: { name: this.configName, namespace: props.infraEnv.namespace, labels: { [INFRAENV_LABEL]: props.infraEnv.infraEnvName } },
      spec: { config: props.config, interfaces: props.interfaces.map((i) => ({ name: i.name, macAddress: i.macAddress })) },
    });
    props.infraEnv._register(this);
  }
}
