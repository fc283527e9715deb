import { ClusterNote, ClusterNoteKind, groupByCluster, Plan, PlanGroup, PlannedObject } from './plan-report';

/** The clusters of a group in one wave of a rollout (or in none), for a line that names each cluster once. */
export interface WaveMembers {
  /** `wave 2 (ring-1) of r-4-17-3`; undefined for clusters in no wave the plan's rollouts move or leave. */
  readonly wave?: string;
  /** The clusters, in name order. */
  readonly clusters: readonly string[];
  /** Whether they are every cluster the commit moves in that wave, which a line can say without naming them. */
  readonly wholeWave: boolean;
}

/** Notes of one kind (and, for upgrades in one commit, one delivery): one line, not one per cluster. */
export interface NoteGroup {
  /** The kind. */
  readonly kind: ClusterNoteKind;
  /** The first cluster's note, which says what every note of the group says of its cluster. */
  readonly example: ClusterNote;
  /** How many clusters. */
  readonly count: number;
  /** The clusters by wave. */
  readonly members: readonly WaveMembers[];
}

/** One warning text, of many objects. */
export interface WarningGroup {
  /** The warning, as the objects carry it. */
  readonly warning: string;
  /** The objects' kinds, in order of first appearance. */
  readonly kinds: readonly string[];
  /** How many objects. */
  readonly count: number;
  /** The objects' clusters by wave (objects of no cluster are not listed). */
  readonly members: readonly WaveMembers[];
}

/** Clusters whose changes are alike: the same objects change the same fields to the same values, with the same effects. */
export interface AlikeClusters {
  /** The first cluster's changes, which stand for all of them. */
  readonly example: PlanGroup;
  /** The clusters, in name order. */
  readonly clusters: readonly string[];
  /** The clusters by wave. */
  readonly members: readonly WaveMembers[];
}

/**
 * How the human forms of a plan stay readable at fleet scale: notes grouped by kind with a count,
 * warnings grouped by text, clusters whose changes are alike shown once, and every list of clusters
 * split by the rollout wave they are in, so that each cluster is named once per wave (or, when a
 * group holds every cluster a wave moves, not named at all).
 */
export class PlanReview {
  /** Each cluster's wave, as `wave <n> (<name>) of <rollout>`. */
  private readonly waveOf = new Map<string, string>();
  /** The clusters each wave moves, by its label. */
  private readonly moved = new Map<string, number>();

  constructor(private readonly plan: Plan) {
    for (const rollout of plan.rollouts ?? []) {
      const label = (wave: { wave: number; name: string }): string => `wave ${wave.wave} (${wave.name}) of ${rollout.name}`;
      for (const wave of [...rollout.moves, ...rollout.left]) for (const cluster of wave.clusters) this.waveOf.set(cluster, label(wave));
      for (const wave of rollout.moves) this.moved.set(label(wave), wave.clusters.length);
    }
  }

  /** The plan's cluster notes, grouped by kind (and delivery), in the order their kinds first appear. */
  public notes(): NoteGroup[] {
    const groups = new Map<string, ClusterNote[]>();
    for (const note of this.plan.clusterNotes) {
      const key = `${note.kind ?? ClusterNoteKind.UPGRADE_IN_ONE_COMMIT}|${note.delivery ?? ''}|${note.poolsWait ?? ''}`;
      push(groups, key, note);
    }
    return [...groups.values()].map((notes) => ({
      kind: notes[0].kind ?? ClusterNoteKind.UPGRADE_IN_ONE_COMMIT,
      example: notes[0],
      count: notes.length,
      members: this.byWave(notes.map((n) => n.cluster)),
    }));
  }

  /** The objects' warnings, grouped by their text, in the order they first appear. */
  public warnings(): WarningGroup[] {
    const groups = new Map<string, PlannedObject[]>();
    for (const object of this.plan.objects) for (const warning of object.warnings ?? []) push(groups, warning, object);
    return [...groups].map(([warning, objects]) => ({
      warning,
      kinds: [...new Set(objects.map((o) => o.kind))],
      count: objects.length,
      members: this.byWave([...new Set(objects.map((o) => o.cluster).filter((c): c is string => c !== undefined))]),
    }));
  }

  /** The plan's clusters, those whose changes are alike together, in the order of their first cluster; then the objects of no cluster. */
  public clusters(): AlikeClusters[] {
    const groups = new Map<string, PlanGroup[]>();
    for (const group of groupByCluster(this.plan)) {
      const key = group.cluster === undefined ? '' : signature(group);
      push(groups, key, group);
    }
    return [...groups.values()].map((alike) => {
      const clusters = alike.map((g) => g.cluster).filter((c): c is string => c !== undefined);
      return { example: alike[0], clusters, members: this.byWave(clusters) };
    });
  }

  /** The clusters split by the wave they are in, waves in the order of their first cluster, clusters outside any last. */
  public byWave(clusters: readonly string[]): WaveMembers[] {
    const waves = new Map<string | undefined, string[]>();
    for (const cluster of clusters) {
      const wave = this.waveOf.get(cluster);
      push(waves, wave, cluster);
    }
    const outside = waves.get(undefined);
    waves.delete(undefined);
    if (outside) waves.set(undefined, outside);
    return [...waves].map(([wave, members]) => ({ ...(wave ? { wave } : {}), clusters: [...members].sort(), wholeWave: wave !== undefined && this.moved.get(wave) === members.length }));
  }
}

/** Adds `value` to the list of `key`. */
function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * What makes two clusters' changes alike: per object, its action, kind and effects, and the fields
 * it changes with their values; names are left out (each cluster's pools are named after it).
 */
function signature(group: PlanGroup): string {
  return group.objects
    .map((o) =>
      [
        o.action,
        o.kind,
        o.effects.map((e) => e.effect).join(','),
        ...o.changes.map((c) => `${c.path}=${JSON.stringify('before' in c ? c.before : null)}>${JSON.stringify('after' in c ? c.after : null)}`),
      ].join('|'),
    )
    .join('\n');
}

/** `wave 2 (ring-1) of r: every cluster it moves (50)` or `wave 2 (ring-1) of r: a, b`; `other clusters: …` for those in no wave the plan names. */
export function waveMembersLine(members: WaveMembers, list: (clusters: readonly string[]) => string = (c) => c.join(', ')): string {
  const where = members.wave ?? 'other clusters';
  if (members.wholeWave) return `${where}: every cluster it moves (${members.clusters.length.toLocaleString('en-US')})`;
  return `${where}: ${list(members.clusters)}`;
}
