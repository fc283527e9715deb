import { hash } from 'crypto';
import * as fs from 'fs';

const FORMAT = 'hcp-cdk checked objects, v1';

/** The record's file: the validator's fingerprint and the digest of every object text it accepted. */
interface CheckedObjectsFile {
  readonly format: typeof FORMAT;
  readonly validator: string;
  readonly objects: readonly string[];
}

/**
 * The objects a validator accepted as new in the last good synth, recorded beside the last good
 * copy (`.<outdir>.last-good/checked.json`) as a digest of each object's text, under the
 * validator's fingerprint (`ObjectValidator.fingerprint`). Checking a new object depends on its
 * text and the validator alone, so a text this record lists is accepted by any validator of the
 * same fingerprint: a re-synth need not check it again where the previous output holds it
 * unchanged (an unchanged object is checked as new: it has no transition). Another hcp-cdk, other
 * schemas or other `crds` change the fingerprint, and every object is checked again.
 */
export class CheckedObjects {
  /** The record in `file`, if it was made under `validator`; an empty one otherwise (missing, unreadable, another validator). */
  public static read(file: string, validator: string): CheckedObjects {
    try {
      const record = JSON.parse(fs.readFileSync(file, 'utf8')) as CheckedObjectsFile;
      if (record.format === FORMAT && record.validator === validator && Array.isArray(record.objects)) return new CheckedObjects(file, validator, record.objects);
    } catch {
      // Missing or cut short: nothing is known to be checked, and everything is.
    }
    return new CheckedObjects(file, validator, []);
  }

  /** The digest of an object's text, as the record lists it. */
  public static digestOf(text: string): string {
    return hash('sha1', text, 'base64');
  }

  private digests: ReadonlySet<string>;

  private constructor(
    public readonly file: string,
    public readonly validator: string,
    digests: readonly string[],
  ) {
    this.digests = new Set(digests);
  }

  /** Whether the text of `digest` (see `digestOf`) was accepted. */
  public has(digest: string): boolean {
    return this.digests.has(digest);
  }

  /** How many object texts it lists. */
  public get size(): number {
    return this.digests.size;
  }

  /**
   * Makes the record list `accepted` (digests, see `digestOf`), the objects of a synth that
   * succeeded; writes its file unless it lists them already. The file is replaced in one rename.
   */
  public update(accepted: ReadonlySet<string>): void {
    if (accepted.size === this.digests.size && [...accepted].every((digest) => this.digests.has(digest))) return;
    const record: CheckedObjectsFile = { format: FORMAT, validator: this.validator, objects: [...accepted].sort() };
    const staging = `${this.file}.staging-${process.pid}`;
    fs.writeFileSync(staging, `${JSON.stringify(record)}\n`);
    fs.renameSync(staging, this.file);
    this.digests = new Set(accepted);
  }
}
