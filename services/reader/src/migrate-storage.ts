// Copies a local content directory into the configured content storage (an
// S3-compatible bucket), for a reader that kept its content on a volume:
//   READER_STORAGE=s3 S3_ENDPOINT=... S3_ACCESS_KEY_ID=... S3_SECRET_ACCESS_KEY=... \
//     node dist/migrate-storage.js --from /var/lib/folio/content
// Keys are the files' paths under the directory, as reader wrote them. Each
// file streams (none is read whole); one already there with the same size is
// skipped, so an interrupted run is simply run again. Temporary files of an
// interrupted write (`*.tmp`) are left out. Prints progress every 100 files.
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { loadReaderConfig } from './config.js';
import { contentStorageOf, describeStorage } from './storage/from-config.js';

async function* filesUnder(root: string): AsyncGenerator<string> {
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile() && !entry.name.endsWith('.tmp')) yield path;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { from: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help || !values.from) {
    console.log('usage: node dist/migrate-storage.js --from <content directory>  (target: READER_STORAGE and its S3_* keys)');
    process.exit(values.help ? 0 : 2);
  }
  const config = loadReaderConfig();
  if (config.READER_STORAGE !== 's3') {
    console.error('error: set READER_STORAGE=s3 and the S3_* keys: the target is the object store');
    process.exit(2);
  }
  const root = resolve(values.from);
  const storage = contentStorageOf(config);
  const started = performance.now();
  let copied = 0;
  let skipped = 0;
  let bytes = 0;
  console.log(`migrating ${root} -> ${describeStorage(config)}`);
  for await (const file of filesUnder(root)) {
    const key = relative(root, file).split(sep).join('/');
    const { size } = await stat(file);
    const existing = await storage.stat(key);
    if (existing && existing.size === size) {
      skipped += 1;
    } else {
      await storage.putStream(key, createReadStream(file));
      copied += 1;
      bytes += size;
    }
    if ((copied + skipped) % 100 === 0) console.log(`  ${copied + skipped} files (${copied} copied, ${skipped} already there)`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`done: ${copied} copied (${(bytes / 1024 / 1024).toFixed(1)} MB), ${skipped} already there, in ${seconds} s`);
  storage.close?.();
}

main().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
