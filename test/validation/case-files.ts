// Loads every case file under ./cases (compiled next to this one), in name order.
import * as fs from 'fs';
import * as path from 'path';
import { ObjectCase } from './object-cases';

export interface CaseFile {
  readonly file: string;
  readonly cases: readonly ObjectCase[];
}

export function loadCaseFiles(): CaseFile[] {
  const dir = path.join(__dirname, 'cases');
  return (
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.js'))
      .sort()
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- every compiled case file in the folder, by a path found at run time
      .map((f) => ({ file: f.replace(/\.js$/, ''), cases: require(path.join(dir, f)).CASES as ObjectCase[] }))
  );
}
