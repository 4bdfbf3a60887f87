// Generates TypeScript for every service contract in proto/ with ts-proto.
// Generated code is built, not committed: `build` runs this first, so CI
// always compiles against the protos as they are.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..');
const protoRoot = join(pkg, '..', '..', 'proto');
const out = join(pkg, 'src', 'gen');
const require = createRequire(import.meta.url);
const buf = require.resolve('@bufbuild/buf/bin/buf', { paths: [join(pkg, '..', '..')] });
const plugin = join(pkg, 'node_modules', '.bin', 'protoc-gen-ts_proto');

const template = {
  version: 'v2',
  plugins: [
    {
      local: plugin,
      out,
      opt: [
        'outputServices=grpc-js',
        'esModuleInterop=true',
        'importSuffix=.js',
        'env=node',
        'forceLong=number',
        'useOptionals=none',
        'outputPartialMethods=false',
        'useExactTypes=false',
      ],
    },
  ],
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const templatePath = join(pkg, '.buf.gen.json');
writeFileSync(templatePath, JSON.stringify(template));
try {
  execFileSync(buf, ['generate', protoRoot, '--template', templatePath], { stdio: 'inherit', cwd: protoRoot });
} finally {
  rmSync(templatePath, { force: true });
}
console.log(`proto: generated TypeScript into ${out}`);
