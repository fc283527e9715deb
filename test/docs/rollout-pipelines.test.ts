// The pipelines docs/plan-and-upgrades.md ships for `hcp-cdk rollout advance` (a GitHub Actions
// workflow, a Tekton Task, Pipeline and CronJob) and the reader's ClusterRole: each block is YAML that
// parses (no duplicate keys), what one part names another declares (step outputs, Tekton params,
// workspaces and the Task the Pipeline runs, the PipelineRun the CronJob creates), every option the
// commands are given is one `hcp-cdk rollout` takes, and the Kubernetes objects pass the API schema.
import { loadAll } from 'js-yaml';
import { ObjectValidator } from '../../lib/validation/object-validator';
import { formatProblem } from '../../lib/validation/validation-problem';
import { ROLLOUT_USAGE } from '../../bin/rollout-command';
import { ROOT } from '../util';
import { codeBlocks, documentationFiles } from './markdown';

const guide = documentationFiles(ROOT).find((f) => f.path === 'docs/plan-and-upgrades.md')!;
const lines = guide.text.split('\n');
const headingLine = (heading: string): number => lines.findIndex((l) => l === heading) + 1;
const yamlBlocks = codeBlocks(guide).filter((b) => b.info === 'yaml');

/** The YAML blocks between two headings, parsed. */
function documentsUnder(from: string, to: string): any[] {
  const [start, end] = [headingLine(from), headingLine(to)];
  expect([from, start > 0, end > start]).toEqual([from, true, true]);
  return yamlBlocks.filter((b) => b.line > start && b.line < end).flatMap((b) => loadAll(b.code) as any[]);
}

/** Every `--option` of the `hcp-cdk rollout` command lines in a script. */
function rolloutOptions(script: string): string[] {
  const commands = script.replace(/\\\n\s*/g, ' ').match(/hcp-cdk rollout (status|advance)[^\n]*/g) ?? [];
  return commands.flatMap((command) => command.match(/--[a-z-]+/g) ?? []);
}

/** A cron schedule of five fields. */
const CRON = /^(\S+\s+){4}\S+$/;

describe('the rollout pipelines of docs/plan-and-upgrades.md', () => {
  test('every YAML block of the guide parses', () => {
    expect(yamlBlocks.length).toBeGreaterThanOrEqual(5);
    for (const block of yamlBlocks) expect(() => loadAll(block.code)).not.toThrow();
  });

  test('GitHub Actions: on a schedule; each step output read is written by that step; advance branches on 0, 2, 3, 4; push or a pull request', () => {
    const [workflow] = documentsUnder('##### GitHub Actions', '##### Tekton (OpenShift Pipelines)');
    expect(workflow.on.schedule[0].cron).toMatch(CRON);
    expect(workflow.permissions).toEqual({ 'contents': 'write', 'pull-requests': 'write' });
    const steps: any[] = workflow.jobs.advance.steps;
    const byId = new Map(steps.filter((s) => s.id).map((s) => [s.id, s]));
    const text = JSON.stringify(workflow);
    for (const [, id, output] of text.matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
      expect([id, output, byId.get(id)?.run?.includes(`${output}=`)]).toEqual([id, output, true]);
    }
    const advance = byId.get('advance').run;
    expect(advance).toContain('case $code in\n  0|2|3|4) ;;');
    expect(rolloutOptions(advance).filter((o) => !ROLLOUT_USAGE.includes(`  ${o} `))).toEqual([]);
    expect(steps.find((s) => s.uses?.startsWith('peter-evans/create-pull-request')).with.branch).toBe('rollout/advance');
    expect(steps.find((s) => s.name === 'Push').run).toContain('git push');
    expect(steps.find((s) => s.name === 'A person must act').if).toBe("steps.advance.outputs.code == '3'");
  });

  test('Tekton: the Pipeline runs the Task with the params and workspaces it declares; the CronJob creates a PipelineRun of the Pipeline', () => {
    const documents = documentsUnder('##### Tekton (OpenShift Pipelines)', '#### The update graph');
    expect(documents.map((d) => `${d.apiVersion}/${d.kind}`)).toEqual(['tekton.dev/v1/Task', 'tekton.dev/v1/Pipeline', 'batch/v1/CronJob']);
    const [task, pipeline, cronJob] = documents;
    const names = (list: any[]) => list.map((item) => item.name).sort();
    const script: string = task.spec.steps[0].script;
    for (const [, kind, name] of script.matchAll(/\$\((params|workspaces)\.([\w-]+)/g)) expect([kind, name, names(task.spec[kind]).includes(name)]).toEqual([kind, name, true]);
    for (const [, name] of JSON.stringify(task.spec.steps[0].env).matchAll(/\$\(params\.([\w-]+)\)/g)) expect(names(task.spec.params)).toContain(name);
    expect(rolloutOptions(script).filter((o) => !ROLLOUT_USAGE.includes(`  ${o} `))).toEqual([]);
    expect(script).toContain('case $code in\n  0|2|3|4) ;;');
    const run = pipeline.spec.tasks[0];
    expect(run.taskRef.name).toBe(task.metadata.name);
    expect(names(run.params).every((p: string) => names(task.spec.params).includes(p))).toBe(true);
    expect(names(task.spec.params.filter((p: any) => p.default === undefined)).every((p: string) => names(run.params).includes(p))).toBe(true);
    expect(names(run.workspaces)).toEqual(names(task.spec.workspaces));
    expect(names(pipeline.spec.workspaces)).toEqual(names(task.spec.workspaces));

    expect(cronJob.spec.schedule).toMatch(CRON);
    expect(new ObjectValidator().validate(cronJob).map(formatProblem)).toEqual([]);
    const command: string = cronJob.spec.jobTemplate.spec.template.spec.containers[0].command[2];
    const [pipelineRun] = loadAll(/<<'EOF'\n([\s\S]*?)\nEOF/.exec(command)![1]) as any[];
    expect(pipelineRun.kind).toBe('PipelineRun');
    expect(pipelineRun.spec.pipelineRef.name).toBe(pipeline.metadata.name);
    expect(names(pipelineRun.spec.workspaces)).toEqual(names(pipeline.spec.workspaces));
    expect(names(pipeline.spec.params.filter((p: any) => p.default === undefined)).every((p: string) => names(pipelineRun.spec.params).includes(p))).toBe(true);
  });

  test("the reader's ClusterRole allows list on HostedClusters and NodePools, and passes the API schema", () => {
    const [role] = documentsUnder('#### Where each rollout stands: `hcp-cdk rollout status`', '#### Advancing in a pipeline: `hcp-cdk rollout advance`');
    expect(role.rules).toEqual([{ apiGroups: ['hypershift.openshift.io'], resources: ['hostedclusters', 'nodepools'], verbs: ['list'] }]);
    expect(new ObjectValidator().validate(role).map(formatProblem)).toEqual([]);
  });
});
