// How the examples are delivered: `HCP_CDK_DELIVERY=<mode>` picks one of the delivery modes below
// (default: kustomize, plain folders), so that every example synthesizes under every mode:
//   HCP_CDK_DELIVERY=kustomize npx cdk8s synth --no-check-upgrade --app 'node build/examples/agent-lab/main.js'
// The repository URL is the examples' own stand-in; point yours at the repository the output is pushed to.
import { AcmDelivery, ArgoCdDelivery, ArgoCdGuestAccess, FluxDelivery, FluxSource, HcpValidationError, IDelivery, KustomizeDelivery } from '../lib';

/** The Git repository the examples' output is pushed to. */
export const EXAMPLE_REPOSITORY = 'https://git.example.com/platform/hcp-estate.git';

/** What an example tells the delivery about its hub. */
export interface ExampleHub {
  /** Whether the hub's hypershift add-on imports hosted clusters itself (HypershiftAddonConfig autoImport). @default true */
  readonly autoImport?: boolean;
}

const MODES: Readonly<Record<string, (hub: ExampleHub) => IDelivery>> = {
  kustomize: () => new KustomizeDelivery(),
  argocd: () => new ArgoCdDelivery({ repoUrl: EXAMPLE_REPOSITORY, guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() }),
  flux: () => new FluxDelivery({ source: FluxSource.gitRepository({ name: 'hcp-estate', url: EXAMPLE_REPOSITORY }) }),
  // With the add-on's import off, ACM delivery writes each cluster's ManagedCluster itself (docs 14.2).
  acm: (hub) => new AcmDelivery({ autoImport: hub.autoImport }),
};

/** The delivery `HCP_CDK_DELIVERY` names. */
export function exampleDelivery(hub: ExampleHub = {}): IDelivery {
  const mode = process.env.HCP_CDK_DELIVERY ?? 'kustomize';
  // Own keys only: `constructor` or `__proto__` would find the object's prototype, not a mode.
  const make = Object.hasOwn(MODES, mode) ? MODES[mode] : undefined;
  // An HcpValidationError, as for any other bad input: the message without a stack trace.
  if (!make) throw new HcpValidationError([`HCP_CDK_DELIVERY (${JSON.stringify(mode)}) must be one of ${Object.keys(MODES).join(', ')}`]);
  return make(hub);
}
