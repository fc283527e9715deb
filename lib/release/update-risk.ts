/** A risk of a conditional update, as the update service names it. */
export interface UpdateRisk {
  /** The risk's name, e.g. `AWSOldBootImages`. */
  readonly name: string;
  /** What it is, for people. @default - none */
  readonly message?: string;
  /** Where it is documented. @default - none */
  readonly url?: string;
}

/** `OVNPodNetworkRace (https://…): what it is`, for messages that name a conditional edge's risks. */
export function riskSentence(risk: UpdateRisk): string {
  const message = risk.message?.trim().replace(/\s+/g, ' ').replace(/\.$/, '');
  return `${risk.name}${risk.url ? ` (${risk.url})` : ''}${message ? `: ${message}` : ''}`;
}
