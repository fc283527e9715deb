/** The label linking BareMetalHosts, NMStateConfigs and Agents to their InfraEnv. */
export const INFRAENV_LABEL = 'infraenvs.agent-install.openshift.io';
