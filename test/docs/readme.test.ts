// README is the overview and quick start; the rest is in the guides. Its quick start is the two
// commands a newcomer runs after cloning, and CI (.ci/run) runs the second one as README gives it.
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from '../util';
import { codeBlocks } from './markdown';

const readme = { path: 'README.md', text: fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8') };

test('README stays an overview: under 400 lines', () => {
  expect(readme.text.split('\n').length).toBeLessThan(400);
});

test('the quick start is two commands, one to install and synthesize, one to test, and CI runs the second', () => {
  const quickStart = codeBlocks(readme).find((block) => block.info === 'sh')!;
  const commands = quickStart.code
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
  expect(commands).toEqual(['npm ci && npm run synth', 'npm test']);
  const ci = fs
    .readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'));
  expect(ci).toContain(commands[1]);
});
